import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import { ErrorBody } from '@cloudvault/contract/common';
import { HealthResponse, ReadinessResponse } from '@cloudvault/contract/health';
import { AppError } from '../../lib/errors.ts';

/** Each dependency the server needs answered before it calls itself healthy. */
export type HealthCheck = () => Promise<void>;

async function checkDependencies(checks: Record<string, HealthCheck>, log: FastifyBaseLogger): Promise<void> {
  for (const [name, check] of Object.entries(checks)) {
    try {
      await check();
    } catch (error) {
      log.error({ err: error, dependency: name }, 'health check failed');
      throw new AppError(503, 'UNHEALTHY', `The ${name} is not answering`);
    }
  }
}

/**
 * Liveness (`/health`) and readiness (`/health/ready`): both ask the dependencies; while
 * the server drains, readiness answers 503 (lib/graceful-close.ts) and liveness still answers.
 */
export function healthRoutes(checks: Record<string, HealthCheck>): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/health',
      { schema: { tags: ['health'], response: { 200: HealthResponse, 503: ErrorBody } }, config: { answersWhileClosing: true } },
      async (request) => {
        await checkDependencies(checks, request.log);
        return { status: 'ok' as const };
      },
    );
    app.get('/health/ready', { schema: { tags: ['health'], response: { 200: ReadinessResponse, 503: ErrorBody } } }, async (request) => {
      await checkDependencies(checks, request.log);
      return { status: 'ready' as const };
    });
  };
}
