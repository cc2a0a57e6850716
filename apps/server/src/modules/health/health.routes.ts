import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import { HealthResponse } from '@cloudvault/contract/health';
import { AppError } from '../../lib/errors.ts';

/** Each dependency the server needs answered before it calls itself healthy. */
export type HealthCheck = () => Promise<void>;

export function healthRoutes(checks: Record<string, HealthCheck>): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/health',
      { schema: { tags: ['health'], response: { 200: HealthResponse, 503: ErrorBody } } },
      async (request) => {
        for (const [name, check] of Object.entries(checks)) {
          try {
            await check();
          } catch (error) {
            request.log.error({ err: error, dependency: name }, 'health check failed');
            throw new AppError(503, 'UNHEALTHY', `The ${name} is not answering`);
          }
        }
        return { status: 'ok' as const };
      },
    );
  };
}
