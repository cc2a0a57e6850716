import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import {
  CreateFolderBody,
  FolderIdParams,
  FolderPathResponse,
  FolderResponse,
  FoldersResponse,
  ListFoldersQuery,
  UpdateFolderBody,
} from '@cloudvault/contract/folders';
import { caller } from '../../lib/auth.ts';
import { jsonObjectStream } from '../../lib/json-stream.ts';
import { listingPage } from '../../lib/listing-pages.ts';
import { type FoldersService, rootOr } from './folders.service.ts';

// 403: a viewer's change of a shared folder (READ_ONLY_SHARE), an editor's of the shared folder itself (SHARE_ROOT_LOCKED).
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

export function foldersRoutes(folders: FoldersService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get(
      '/user/folders',
      { schema: { tags: ['folders'], querystring: ListFoldersQuery, response: { 200: FoldersResponse, ...errors } } },
      async (request, reply) => {
        const { userId } = caller(request);
        const parentId = rootOr(request.query.parentId);
        const page = listingPage('folders', request.query);
        const listing = page ? await folders.listSorted(userId, parentId, page) : { folders: await folders.list(userId, parentId) };
        // One page is answered as any object; a listing asked for whole is written as it is read.
        if ('nextCursor' in listing) return listing;
        const body = jsonObjectStream({ folders: listing.folders });
        // Fastify pipes a stream instead of serializing it: the schema documents the answer,
        // which presentFolder gives exactly, written as its pages are read.
        return reply.type('application/json; charset=utf-8').send(body as unknown as FoldersResponse);
      },
    );

    app.post(
      '/user/folders',
      { schema: { tags: ['folders'], body: CreateFolderBody, response: { 201: FolderResponse, ...errors } } },
      async (request, reply) => reply.code(201).send({ folder: await folders.create(caller(request).userId, request.body) }),
    );

    app.get(
      '/user/folders/:id/path',
      { schema: { tags: ['folders'], params: FolderIdParams, response: { 200: FolderPathResponse, ...errors } } },
      async (request) => ({ path: await folders.path(caller(request).userId, request.params.id) }),
    );

    app.patch(
      '/user/folders/:id',
      {
        schema: { tags: ['folders'], params: FolderIdParams, body: UpdateFolderBody, response: { 200: FolderResponse, ...errors } },
      },
      async (request) => ({ folder: await folders.update(caller(request).userId, request.params.id, request.body) }),
    );
  };
}
