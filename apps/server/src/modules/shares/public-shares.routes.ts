import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
import { forbidden, notFound } from '../../lib/errors.ts';
import { displayContentType } from './display-types.ts';
import type { DownloadableFile, DownloadResponses } from '../downloads/download-responses.ts';
import type { FolderArchiveService } from '../files/folder-archive.service.ts';
import type { ShareRow } from './shares.repository.ts';
import type { SharesService } from './shares.service.ts';

const errors = { 401: PasswordRequiredBody, 403: ErrorBody, 404: ErrorBody, 410: ErrorBody };

/** The visitor's pass after a password: header X-Share-Access, or query `access` for native downloads. */
function accessOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-share-access'];
  if (typeof header === 'string' && header !== '') return header;
  const query = (request.query as { access?: string } | undefined)?.access;
  return query || undefined;
}

/**
 * A download through a link counts once per download started, not per resumed range; so
 * does a display (the bytes leave either way, and a limit must not be outrun by viewing).
 */
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

  /** A file's bytes for the viewer of a link, inline; what it cannot display would be a download (403). */
  async function display(request: FastifyRequest, reply: FastifyReply, share: ShareRow, file: DownloadableFile) {
    const type = displayContentType(file.mimetype, file.name);
    if (!type) throw forbidden('This file cannot be shown in the browser, and this link does not allow downloads.', 'NOT_VIEWABLE');
    if (startsDownload(request)) await shares.countDownload(share);
    return downloads.sendFile(request, reply, file, { display: type });
  }

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
        const resolved = await shares.resolve(request.params.token, accessOf(request), 'download');
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
        const resolved = await shares.resolve(request.params.token, accessOf(request), 'download');
        const file = await shares.fileInFolderShare(resolved, request.params.fileId);
        if (startsDownload(request)) await shares.countDownload(resolved.share);
        return downloads.sendFile(request, reply, file);
      },
    );

    // (+++) The viewer's bytes, for every link that shows files (the only ones a view-only link gives).
    app.get(
      '/public/shares/:token/view',
      { schema: { tags: ['public shares'], params: ShareTokenParams, querystring: ShareAccessQuery } },
      async (request, reply) => {
        const resolved = await shares.resolve(request.params.token, accessOf(request), 'view');
        if (resolved.type !== 'file') throw notFound('This link is for a folder: view a file inside it.', 'NOT_A_FILE');
        return display(request, reply, resolved.share, resolved.file);
      },
    );

    app.get(
      '/public/shares/:token/files/:fileId/view',
      { schema: { tags: ['public shares'], params: PublicFileParams, querystring: ShareAccessQuery } },
      async (request, reply) => {
        const resolved = await shares.resolve(request.params.token, accessOf(request), 'view');
        return display(request, reply, resolved.share, await shares.fileInFolderShare(resolved, request.params.fileId));
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
