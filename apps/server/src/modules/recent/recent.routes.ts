import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import { RecentQuery, RecentResponse } from '@cloudvault/contract/recent';
import { caller } from '../../lib/auth.ts';
import type { RecentService } from './recent.service.ts';

/** Recently opened and changed files (docs/api.md#recent). */
export function recentRoutes(recent: RecentService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get(
      '/recent',
      { schema: { tags: ['recent'], querystring: RecentQuery, response: { 200: RecentResponse, 400: ErrorBody, 401: ErrorBody } } },
      async (request) => recent.list(caller(request).userId, request.query),
    );
  };
}
