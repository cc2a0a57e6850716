import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import { DownloadLinkResponse, FileIdParams } from '@cloudvault/contract/files';
import { RestoredVersionResponse, VersionParams, VersionsResponse } from '@cloudvault/contract/versions';
import { Type } from 'typebox';
import { caller } from '../../lib/auth.ts';
import type { DownloadLinks } from '../downloads/download-links.ts';
import type { DownloadResponses } from '../downloads/download-responses.ts';
import type { VersionsService } from './versions.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** A file's version history (a Business feature): the caller's own files, and those in folders they edit. */
export function versionsRoutes(deps: {
  versions: VersionsService;
  links: DownloadLinks;
  downloads: DownloadResponses;
}): FastifyPluginAsyncTypebox {
  const { versions, links, downloads } = deps;
  return async (app) => {
    links.serve('version', async ({ userId, id, fileId }) =>
      fileId === undefined ? null : { type: 'file', file: await versions.versionAsFile(userId, fileId, id) },
    );
    app.addHook('onRequest', app.requireUser);

    app.get(
      '/files/:id/versions',
      { schema: { tags: ['versions'], params: FileIdParams, response: { 200: VersionsResponse, ...errors } } },
      async (request) => ({
        versions: await versions.list(caller(request).userId, request.params.id),
      }),
    );

    app.get(
      '/files/:id/versions/:versionId/download',
      { schema: { tags: ['versions'], params: VersionParams } },
      async (request, reply) => {
        return downloads.sendFile(
          request,
          reply,
          await versions.versionAsFile(caller(request).userId, request.params.id, request.params.versionId),
        );
      },
    );

    app.post(
      '/files/:id/versions/:versionId/download-link',
      { schema: { tags: ['versions'], params: VersionParams, response: { 200: DownloadLinkResponse, ...errors } } },
      async (request) => {
        const { userId } = caller(request);
        const { id, versionId } = request.params;
        const { ownerId } = await versions.requireVersion(userId, id, versionId);
        // Served as the owner's version, as a shared file's link is (files.routes).
        return links.create({ kind: 'version', id: versionId, fileId: id, userId: ownerId });
      },
    );

    app.post(
      '/files/:id/versions/:versionId/restore',
      { schema: { tags: ['versions'], params: VersionParams, response: { 200: RestoredVersionResponse, ...errors } } },
      async (request) => ({ file: await versions.restore(caller(request).userId, request.params.id, request.params.versionId) }),
    );

    app.delete(
      '/files/:id/versions/:versionId',
      { schema: { tags: ['versions'], params: VersionParams, response: { 204: Type.Null(), ...errors } } },
      async (request, reply) => {
        await versions.remove(caller(request).userId, request.params.id, request.params.versionId);
        return reply.code(204).send(null);
      },
    );
  };
}
