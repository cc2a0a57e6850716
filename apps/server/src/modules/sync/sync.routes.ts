import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import { SYNC_TREE_TYPE, SyncTreeQuery } from '@cloudvault/contract/sync';
import { caller } from '../../lib/auth.ts';
import { ndjsonStream } from './ndjson.ts';
import type { SyncTreeService } from './sync-tree.service.ts';

/** The sync client's routes (docs/api.md#sync): the whole tree at once, and files in batches. */
export function syncRoutes(deps: { tree: SyncTreeService }): FastifyPluginAsyncTypebox {
  const { tree } = deps;
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get(
      '/sync/tree',
      { schema: { tags: ['sync'], querystring: SyncTreeQuery, response: { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody } } },
      async (request, reply) => {
        const lines = await tree.open(caller(request).userId, request.query.folderId);
        // Fastify pipes a stream rather than serializing it: the lines are the contract's shapes (SyncTreeLine).
        return reply
          .type(SYNC_TREE_TYPE)
          .header('cache-control', 'no-store')
          .send(ndjsonStream(lines) as never);
      },
    );
  };
}
