import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AnalyticsResponse } from '@cloudvault/contract/analytics';
import { ErrorBody } from '@cloudvault/contract/common';
import { caller } from '../../lib/auth.ts';
import type { AnalyticsService } from './analytics.service.ts';

export function analyticsRoutes(analytics: AnalyticsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get(
      '/analytics',
      { schema: { tags: ['analytics'], response: { 200: AnalyticsResponse, 401: ErrorBody, 403: ErrorBody } } },
      async (request) => analytics.report(caller(request).userId),
    );
  };
}
