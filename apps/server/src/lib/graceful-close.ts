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
    /**
     * Aborts when the server starts closing (gracefully or not): requests that only wait
     * (a change feed's wait or stream) end at once instead of holding the shutdown.
     */
    closingSignal: AbortSignal;
  }
}

/** After the cut, how long handlers may take to clean up (an upload releasing its reservation) before the database closes. */
const CLEAN_UP_MS = 10_000;

/** Resolves when `done()` is true, checked at each `changed` call, or after `ms`. */
function waitUntil(done: () => boolean, ms: number): { changed(): void; settled: Promise<void> } {
  let resolve!: () => void;
  const settled = new Promise<void>((r) => (resolve = r));
  const timer = setTimeout(resolve, ms);
  const changed = () => {
    if (!done()) return;
    clearTimeout(timer);
    resolve();
  };
  changed();
  return { changed, settled: settled.finally(() => clearTimeout(timer)) };
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
  /** Responses not yet sent. */
  let running = 0;
  /** Handlers not yet returned: a cut request still cleans up after its response closed. */
  let handling = 0;
  let changed: (() => void) | undefined;
  const closingNow = new AbortController();
  app.decorate('closingSignal', closingNow.signal);
  app.addHook('preClose', async () => closingNow.abort());

  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    // Only async handlers (every route of ours) are followed; wrapping keeps what they return and throw.
    if (handler.constructor.name !== 'AsyncFunction') return;
    route.handler = async function (this: FastifyInstance, ...args: Parameters<typeof handler>) {
      handling += 1;
      try {
        return await handler.apply(this, args);
      } finally {
        handling -= 1;
        changed?.();
      }
    };
  });

  // A callback, not async: every request passes it (docs/decisions/0034-request-cost.md, addendum).
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      reply.header('Connection', 'close');
      if (request.routeOptions.config.answersWhileClosing) return done();
      return done(new AppError(503, 'SHUTTING_DOWN', 'This server is shutting down. Please try again.', {}, { 'Retry-After': '1' }));
    }
    running += 1;
    // 'close' comes once the response is sent or its connection is gone, downloads written outside Fastify's send included.
    reply.raw.once('close', () => {
      running -= 1;
      changed?.();
    });
    done();
  });

  app.decorate('closeGracefully', async (graceMs: number) => {
    closing = true;
    closingNow.abort();
    const finished = waitUntil(() => running === 0 && handling === 0, graceMs);
    changed = finished.changed;
    await finished.settled;
    if (running > 0 || handling > 0) {
      app.log.warn({ running, graceMs }, 'shutdown grace period over: cutting the requests still running');
      const cleanedUp = waitUntil(() => handling === 0, CLEAN_UP_MS);
      changed = cleanedUp.changed;
      app.server.closeAllConnections();
      await cleanedUp.settled;
    }
    await app.close();
  });
}
