import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import { FileIdParams } from '@cloudvault/contract/files';
import { FolderIdParams } from '@cloudvault/contract/folders';
import {
  PrivateShareResponse,
  ShareFileBody,
  ShareFolderBody,
  ShareIdParams,
  ShareLinkResponse,
  SharedWithMeResponse,
  SharesResponse,
  UpdateShareBody,
  UpdateShareResponse,
} from '@cloudvault/contract/shares';
import { Type } from 'typebox';
import { caller } from '../../lib/auth.ts';
import { jsonObjectStream } from '../../lib/json-stream.ts';
import { emptyBodyAsObject } from '../../lib/optional-body.ts';
import type { SharesService } from './shares.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** The owner's side of sharing, and what others shared with the caller. */
export function sharesRoutes(shares: SharesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.post(
      '/files/:id/share',
      {
        schema: {
          tags: ['shares'],
          params: FileIdParams,
          body: ShareFileBody,
          response: { 200: Type.Union([ShareLinkResponse, PrivateShareResponse]), ...errors, 429: ErrorBody },
        },
        preValidation: emptyBodyAsObject,
      },
      async (request) => shares.shareFile(caller(request).userId, request.params.id, request.body),
    );

    app.post(
      '/user/folders/:id/share',
      {
        schema: {
          tags: ['shares'],
          params: FolderIdParams,
          body: ShareFolderBody,
          response: { 200: Type.Union([ShareLinkResponse, PrivateShareResponse]), ...errors, 429: ErrorBody },
        },
      },
      async (request) => shares.shareFolder(caller(request).userId, request.params.id, request.body),
    );

    app.get('/shares', { schema: { tags: ['shares'], response: { 200: SharesResponse, 401: ErrorBody } } }, async (request, reply) => {
      const body = jsonObjectStream({ shares: await shares.list(caller(request).userId) });
      // Fastify pipes a stream instead of serializing it: the schema documents the answer,
      // which presentShare gives exactly, written as its pages are read.
      return reply.type('application/json; charset=utf-8').send(body as unknown as SharesResponse);
    });

    app.patch(
      '/shares/:id',
      { schema: { tags: ['shares'], params: ShareIdParams, body: UpdateShareBody, response: { 200: UpdateShareResponse, ...errors } } },
      async (request) => shares.update(caller(request).userId, request.params.id, request.body),
    );

    app.delete(
      '/shares/:id',
      { schema: { tags: ['shares'], params: ShareIdParams, response: { 204: Type.Null(), 404: ErrorBody, 401: ErrorBody } } },
      async (request, reply) => {
        await shares.revoke(caller(request).userId, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/shared-with-me/:id',
      { schema: { tags: ['shares'], params: ShareIdParams, response: { 204: Type.Null(), 404: ErrorBody, 401: ErrorBody } } },
      async (request, reply) => {
        await shares.leave(caller(request).userId, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/shared-with-me',
      { schema: { tags: ['shares'], response: { 200: SharedWithMeResponse, 401: ErrorBody } } },
      async (request) => {
        const { userId } = caller(request);
        const [folders, files] = await Promise.all([shares.sharedWithMe(userId), shares.filesSharedWithMe(userId)]);
        return { folders, files };
      },
    );
  };
}
