import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, notFound } from '../../lib/errors.ts';
import type { Metrics } from '../../lib/metrics.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics, Prometheus' text format, for a scraper that sends the METRICS_TOKEN as a
 * bearer token. Without a token configured the route does not exist (404), rather than
 * falling through to the web app.
 */
export function metricsRoutes(deps: { metrics: Metrics; token: string | undefined }): FastifyPluginAsyncTypebox {
  const { metrics, token } = deps;
  const expected = token === undefined ? undefined : digest(token);
  return async (app) => {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (expected === undefined) throw notFound();
      const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      // Compared as digests, in constant time: the answer's timing tells nothing about the token.
      if (given === undefined || !timingSafeEqual(digest(given), expected)) {
        throw new AppError(401, 'UNAUTHORIZED', 'A valid metrics token is required', {}, { 'WWW-Authenticate': 'Bearer' });
      }
      const { contentType, text } = await metrics.render();
      return reply.type(contentType).send(text);
    });
  };
}
