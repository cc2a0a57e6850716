import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answered as usual while the server drains: the liveness check (the process is alive until it exits). */
    answersWhileClosing?: boolean;
  }
  interface FastifyInstance {
    /**
     * Leaves the way a node behind a balancer should: from now on every new request is
     * answered 503 SHUTTING_DOWN (the readiness check included), requests already running
     * (uploads, downloads) may finish for up to `graceMs` and are then cut, and the server
     * closes. Resolves once it is closed.
     */
    closeGracefully(graceMs: number): Promise<void>;
  }
}

/**
 * Draining (docs/decisions/0020-running-several-nodes.md). The listener stays open while
 * running requests finish, so a balancer's readiness check gets a 503 it can act on rather
 * than a refused connection that looks like a crash; every answer then closes its
 * connection, so clients go to another node. Fastify's own 503 on close is turned off
 * (`return503OnClosing: false`): it answers in another shape than our errors.
 */
export function registerGracefulClose(app: FastifyInstance): void {
  let closing = false;
  let running = 0;
  let allDone: (() => void) | undefined;

  app.addHook('onRequest', async (request, reply) => {
    if (closing) {
      reply.header('Connection', 'close');
      if (request.routeOptions.config.answersWhileClosing) return;
      throw new AppError(503, 'SHUTTING_DOWN', 'This server is shutting down. Please try again.', {}, { 'Retry-After': '1' });
    }
    running += 1;
    // 'close' comes once the response is sent or its connection is gone, downloads written outside Fastify's send included.
    reply.raw.once('close', () => {
      running -= 1;
      if (running === 0) allDone?.();
    });
  });

  app.decorate('closeGracefully', async (graceMs: number) => {
    closing = true;
    let deadline: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => {
        allDone = resolve;
        if (running === 0) resolve();
      }),
      new Promise<void>((resolve) => {
        deadline = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(deadline);
    if (running > 0) {
      app.log.warn({ running, graceMs }, 'shutdown grace period over: cutting the requests still running');
      app.server.closeAllConnections();
    }
    await app.close();
  });
}
