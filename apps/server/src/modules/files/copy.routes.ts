import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import { CopyFileBody, CopyFolderBody } from '@cloudvault/contract/copy';
import { FileIdParams, FileResponse } from '@cloudvault/contract/files';
import { FolderIdParams, FolderResponse } from '@cloudvault/contract/folders';
import { caller } from '../../lib/auth.ts';
import type { CopyService } from './copy.service.ts';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  429: ErrorBody,
  503: ErrorBody,
  507: ErrorBody,
};

/** Server-side copies of files and folders (docs/api.md#copy). */
export function copyRoutes(copies: CopyService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.post(
      '/files/:id/copy',
      { schema: { tags: ['files'], params: FileIdParams, body: CopyFileBody, response: { 201: FileResponse, ...errors } } },
      async (request, reply) =>
        reply.code(201).send({ file: await copies.copyFile(caller(request).userId, request.params.id, request.body) }),
    );

    app.post(
      '/user/folders/:id/copy',
      { schema: { tags: ['folders'], params: FolderIdParams, body: CopyFolderBody, response: { 201: FolderResponse, ...errors } } },
      async (request, reply) =>
        reply.code(201).send({ folder: await copies.copyFolder(caller(request).userId, request.params.id, request.body) }),
    );
  };
}
