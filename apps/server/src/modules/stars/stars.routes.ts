import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import { ListStarredQuery, StarParams, StarredResponse } from '@cloudvault/contract/starred';
import { caller } from '../../lib/auth.ts';
import type { StarsService } from './stars.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** Starred files and folders (docs/api.md#starred). */
export function starsRoutes(stars: StarsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.put(
      '/starred/:type/:id',
      { schema: { tags: ['starred'], params: StarParams, response: { 204: Type.Null(), ...errors } } },
      async (request, reply) => {
        await stars.star(caller(request).userId, request.params.type, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/starred/:type/:id',
      { schema: { tags: ['starred'], params: StarParams, response: { 204: Type.Null(), ...errors } } },
      async (request, reply) => {
        await stars.unstar(caller(request).userId, request.params.type, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/starred',
      { schema: { tags: ['starred'], querystring: ListStarredQuery, response: { 200: StarredResponse, ...errors } } },
      async (request) => stars.list(caller(request).userId, request.query),
    );
  };
}
