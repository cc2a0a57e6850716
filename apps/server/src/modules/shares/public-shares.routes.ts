import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ErrorBody } from '@cloudvault/contract/common';
import {
  PasswordRequiredBody,
  PublicFileParams,
  PublicItemsQuery,
  PublicItemsResponse,
  PublicShare,
  ShareAccessBody,
  ShareAccessQuery,
  ShareAccessResponse,
  ShareTokenParams,
} from '@cloudvault/contract/shares';
import type { DownloadResponses } from '../downloads/download-responses.ts';
import type { FolderArchiveService } from '../files/folder-archive.service.ts';
import type { SharesService } from './shares.service.ts';

const errors = { 401: PasswordRequiredBody, 404: ErrorBody, 410: ErrorBody };

/** The visitor's pass after a password: header X-Share-Access, or query `access` for native downloads. */
function accessOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-share-access'];
  if (typeof header === 'string' && header !== '') return header;
  const query = (request.query as { access?: string } | undefined)?.access;
  return query || undefined;
}

/** A download through a link counts once per download started, not per resumed range. */
function startsDownload(request: FastifyRequest): boolean {
  const range = request.headers.range;
  return range === undefined || /^bytes=0-/.test(range);
}

/** docs/api.md#public-shares: no account; the token is the permission, and it reaches only its item. */
export function publicSharesRoutes(deps: {
  shares: SharesService;
  folderArchives: FolderArchiveService;
  downloads: DownloadResponses;
}): FastifyPluginAsyncTypebox {
  const { shares, downloads } = deps;
  return async (app) => {
    app.get(
      '/public/shares/:token',
      {
        schema: {
          tags: ['public shares'],
          params: ShareTokenParams,
          querystring: ShareAccessQuery,
          response: { 200: PublicShare, ...errors },
        },
      },
      async (request) => shares.describe(request.params.token, accessOf(request)),
    );

    app.get(
      '/public/shares/:token/items',
      {
        schema: {
          tags: ['public shares'],
          params: ShareTokenParams,
          querystring: PublicItemsQuery,
          response: { 200: PublicItemsResponse, ...errors },
        },
      },
      async (request) => shares.items(request.params.token, accessOf(request), request.query.folderId),
    );

    app.get(
      '/public/shares/:token/download',
      { schema: { tags: ['public shares'], params: ShareTokenParams, querystring: ShareAccessQuery } },
      async (request, reply) => {
        const resolved = await shares.resolve(request.params.token, accessOf(request));
        if (startsDownload(request)) await shares.countDownload(resolved.share);
        if (resolved.type === 'folder')
          return downloads.sendZip(request, reply, await deps.folderArchives.archive(resolved.ownerId, resolved.folder.id));
        return downloads.sendFile(request, reply, resolved.file);
      },
    );

    app.get(
      '/public/shares/:token/files/:fileId/download',
      { schema: { tags: ['public shares'], params: PublicFileParams, querystring: ShareAccessQuery } },
      async (request, reply) => {
        const resolved = await shares.resolve(request.params.token, accessOf(request));
        const file = await shares.fileInFolderShare(resolved, request.params.fileId);
        if (startsDownload(request)) await shares.countDownload(resolved.share);
        return downloads.sendFile(request, reply, file);
      },
    );

    app.post(
      '/public/shares/:token/access',
      {
        schema: {
          tags: ['public shares'],
          params: ShareTokenParams,
          body: ShareAccessBody,
          response: { 200: ShareAccessResponse, 401: PasswordRequiredBody, 404: ErrorBody, 429: ErrorBody },
        },
      },
      async (request) => shares.unlock(request.params.token, request.body.password, request.ip),
    );
  };
}
