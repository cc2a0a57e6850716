import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, MessageBody } from '@cloudvault/contract/common';
import { FileIdParams } from '@cloudvault/contract/files';
import { FolderIdParams } from '@cloudvault/contract/folders';
import { RestoreBody, RestoreResponse, TrashResponse } from '@cloudvault/contract/trash';
import { caller } from '../../lib/auth.ts';
import { jsonObjectStream } from '../../lib/json-stream.ts';
import type { TrashService } from './trash.service.ts';

// 403: a viewer's delete in a shared folder (READ_ONLY_SHARE), an editor's of the shared item itself (SHARE_ROOT_LOCKED).
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

export function trashRoutes(trash: TrashService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.delete(
      '/files/:id',
      { schema: { tags: ['trash'], params: FileIdParams, response: { 200: MessageBody, ...errors } } },
      async (request) => {
        await trash.trashFile(caller(request).userId, request.params.id);
        return { message: 'File moved to Trash' };
      },
    );

    app.delete(
      '/user/folders/:id',
      { schema: { tags: ['trash'], params: FolderIdParams, response: { 200: MessageBody, ...errors } } },
      async (request) => {
        await trash.trashFolder(caller(request).userId, request.params.id);
        return { message: 'Folder moved to Trash' };
      },
    );

    app.get('/trash', { schema: { tags: ['trash'], response: { 200: TrashResponse, 401: ErrorBody } } }, async (request, reply) => {
      const body = jsonObjectStream(await trash.list(caller(request).userId));
      // Fastify pipes a stream instead of serializing it: the schema documents the answer,
      // which the presenters give exactly, written as its pages are read.
      return reply.type('application/json; charset=utf-8').send(body as unknown as TrashResponse);
    });

    app.post(
      '/trash/restore',
      { schema: { tags: ['trash'], body: RestoreBody, response: { 200: RestoreResponse, ...errors } } },
      async (request) => trash.restore(caller(request).userId, request.body),
    );

    for (const type of ['file', 'folder'] as const) {
      app.delete(
        `/trash/${type}s/:id`,
        { schema: { tags: ['trash'], params: FileIdParams, response: { 204: Type.Null(), ...errors } } },
        async (request, reply) => {
          await trash.purgeItem(caller(request).userId, type, request.params.id);
          return reply.code(204).send(null);
        },
      );
    }

    app.delete('/trash', { schema: { tags: ['trash'], response: { 204: Type.Null(), 401: ErrorBody } } }, async (request, reply) => {
      await trash.empty(caller(request).userId);
      return reply.code(204).send(null);
    });
  };
}
