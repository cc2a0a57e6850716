import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ErrorBody } from '@cloudvault/contract/common';
import { FileIdParams } from '@cloudvault/contract/files';
import { PasswordRequiredBody, PublicFileParams, ShareTokenParams } from '@cloudvault/contract/shares';
import { ThumbnailQuery } from '@cloudvault/contract/thumbnails';
import { caller } from '../../lib/auth.ts';
import type { DownloadResponses } from '../downloads/download-responses.ts';
import type { ThumbnailsService } from './thumbnails.service.ts';

const errors = { 401: ErrorBody, 404: ErrorBody };
const linkErrors = { 401: PasswordRequiredBody, 404: ErrorBody, 410: ErrorBody };

/** A link's pass after its password, as its download routes take it: header X-Share-Access, or query `access` (an img src). */
function accessOf(request: FastifyRequest, query: ThumbnailQuery): string | undefined {
  const header = request.headers['x-share-access'];
  if (typeof header === 'string' && header !== '') return header;
  return query.access || undefined;
}

/**
 * docs/api.md#thumbnails: a file's WebP thumbnail for whoever may download the file (its
 * owner, a recipient of a folder shared privately, a visitor of a link), else 404.
 */
export function thumbnailsRoutes(deps: { thumbnails: ThumbnailsService; downloads: DownloadResponses }): FastifyPluginAsyncTypebox {
  const { thumbnails, downloads } = deps;
  return async (app) => {
    app.get(
      '/files/:id/thumbnail',
      { onRequest: app.requireUser, schema: { tags: ['thumbnails'], params: FileIdParams, querystring: ThumbnailQuery, response: errors } },
      async (request, reply) =>
        downloads.sendThumbnail(
          request,
          reply,
          await thumbnails.ofReadableFile(caller(request).userId, request.params.id, request.query.size ?? 'small'),
        ),
    );

    app.get(
      '/public/shares/:token/thumbnail',
      { schema: { tags: ['public shares'], params: ShareTokenParams, querystring: ThumbnailQuery, response: linkErrors } },
      async (request, reply) =>
        downloads.sendThumbnail(
          request,
          reply,
          await thumbnails.ofFileLink(request.params.token, accessOf(request, request.query), request.query.size ?? 'small'),
        ),
    );

    app.get(
      '/public/shares/:token/files/:fileId/thumbnail',
      { schema: { tags: ['public shares'], params: PublicFileParams, querystring: ThumbnailQuery, response: linkErrors } },
      async (request, reply) =>
        downloads.sendThumbnail(
          request,
          reply,
          await thumbnails.ofFileInFolderLink(
            request.params.token,
            accessOf(request, request.query),
            request.params.fileId,
            request.query.size ?? 'small',
          ),
        ),
    );
  };
}
