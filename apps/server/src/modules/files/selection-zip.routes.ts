import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import { SelectionZipBody, SelectionZipLinkResponse } from '@cloudvault/contract/selection-zip';
import { caller } from '../../lib/auth.ts';
import { systemClock, type Clock } from '../../lib/clock.ts';
import type { DownloadLinks } from '../downloads/download-links.ts';
import type { DownloadResponses } from '../downloads/download-responses.ts';
import type { FoldersService } from '../folders/folders.service.ts';
import type { FilesService } from './files.service.ts';
import type { FolderArchiveService } from './folder-archive.service.ts';
import { createSelectionZipService, decodeSelection, encodeSelection, selectionLinkInvalid } from './selection-zip.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };
/** A form's token field: a selection of 1,000 long ids signed, with room to spare. */
const FORM_BODY_LIMIT = 256 * 1024;

/**
 * The zip of a selection (docs/api.md#selection-zip): straight from a bearer request, or
 * through a signed link. A selection's link can outgrow an address, so its token is also
 * taken as the field of a plain form POST, which a browser saves to disk as it arrives.
 */
export function selectionZipRoutes(deps: {
  files: Pick<FilesService, 'requireFile'>;
  folders: Pick<FoldersService, 'findLive'>;
  folderArchives: Pick<FolderArchiveService, 'archiveOf'>;
  links: DownloadLinks;
  downloads: DownloadResponses;
  clock?: Clock;
}): FastifyPluginAsyncTypebox {
  const selections = createSelectionZipService({ ...deps, clock: deps.clock ?? systemClock });
  const { links, downloads } = deps;
  return async (app) => {
    links.serve('selection', async ({ userId, id }) => {
      const selection = decodeSelection(id);
      if (!selection) throw selectionLinkInvalid();
      return { type: 'zip', archive: await selections.archive(userId, selection) };
    });
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.post(
      '/downloads/zip',
      { onRequest: app.requireUser, schema: { tags: ['files'], body: SelectionZipBody, response: { ...errors } } },
      async (request, reply) => downloads.sendZip(request, reply, await selections.archive(caller(request).userId, request.body)),
    );

    app.post(
      '/downloads/zip-link',
      {
        onRequest: app.requireUser,
        schema: { tags: ['files'], body: SelectionZipBody, response: { 200: SelectionZipLinkResponse, ...errors } },
      },
      async (request) => {
        const { userId } = caller(request);
        const selection = { files: [...new Set(request.body.files)], folders: [...new Set(request.body.folders)] };
        await selections.check(userId, selection);
        const { url, expiresAt } = await links.create({ kind: 'selection', id: encodeSelection(selection), userId });
        return { url, token: url.slice(url.lastIndexOf('/') + 1), expiresAt };
      },
    );

    // No bearer: the signed token is the permission, as for GET /api/downloads/:token.
    app.post(
      '/downloads',
      {
        schema: {
          tags: ['files'],
          consumes: ['application/x-www-form-urlencoded'],
          body: Type.Object({ token: Type.String({ minLength: 1 }) }),
        },
      },
      async (request, reply) => {
        const download = await links.resolve(request.body.token);
        if (!download) throw selectionLinkInvalid();
        return downloads.send(request, reply, download);
      },
    );
  };
}
