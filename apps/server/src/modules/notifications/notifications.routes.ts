import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import { NotificationsResponse } from '@cloudvault/contract/profile';
import { Type } from 'typebox';
import { caller } from '../../lib/auth.ts';
import type { NotificationsService } from './notifications.service.ts';

export function notificationsRoutes(notifications: NotificationsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get(
      '/notifications',
      { schema: { tags: ['notifications'], response: { 200: NotificationsResponse, 401: ErrorBody } } },
      async (request) => notifications.list(caller(request).userId),
    );

    app.post(
      '/notifications/read',
      { schema: { tags: ['notifications'], response: { 204: Type.Null(), 401: ErrorBody } } },
      async (request, reply) => {
        await notifications.markAllRead(caller(request).userId);
        return reply.code(204).send(null);
      },
    );
  };
}
