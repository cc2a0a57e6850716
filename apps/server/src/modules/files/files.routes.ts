import type {} from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import {
  DashboardResponse,
  DownloadLinkResponse,
  FileIdParams,
  FileResponse,
  FilesResponse,
  ListFilesQuery,
  UpdateFileBody,
  UploadConfig,
} from '@cloudvault/contract/files';
import { FolderIdParams } from '@cloudvault/contract/folders';
import { caller } from '../../lib/auth.ts';
import { continueWithBody } from '../../lib/early-answers.ts';
import { badRequest } from '../../lib/errors.ts';
import { listingPage } from '../../lib/listing-pages.ts';
import { multipartCutOff } from '../../lib/multipart-parts.ts';
import type { FolderArchiveService } from './folder-archive.service.ts';
import { type FoldersService, rootOr } from '../folders/folders.service.ts';
import type { DownloadLinks } from '../downloads/download-links.ts';
import type { DownloadResponses } from '../downloads/download-responses.ts';
import type { FilesService } from './files.service.ts';
import type { StorageService } from './storage.service.ts';
import { multipartBody } from './multipart-upload.ts';
import { requireDeclaredLength, type UploadsService } from './uploads.service.ts';

// 403: a viewer's change of or upload into what is shared with them (READ_ONLY_SHARE), an editor's move of a file shared alone (SHARE_ROOT_LOCKED).
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

export function filesRoutes(deps: {
  files: FilesService;
  uploads: UploadsService;
  storage: StorageService;
  folderArchives: FolderArchiveService;
  folders: Pick<FoldersService, 'readableFolder'>;
  links: DownloadLinks;
  downloads: DownloadResponses;
  /** Recent (a later module): an owner opening their own file through the app is remembered there. */
  recent: { opened(userId: string, fileId: string): Promise<void> };
}): FastifyPluginAsyncTypebox {
  const { files, uploads, storage, folderArchives, folders, links, downloads, recent } = deps;
  return async (app) => {
    links.serve('file', async ({ userId, id }) => ({ type: 'file', file: await files.requireFile(userId, id) }));
    links.serve('folder', async ({ userId, id }) => ({ type: 'zip', archive: await folderArchives.archive(userId, id) }));
    app.addHook('onRequest', app.requireUser);

    app.get('/files/upload-config', { schema: { tags: ['files'], response: { 200: UploadConfig, 401: ErrorBody } } }, async (request) =>
      storage.uploadConfig(caller(request).userId),
    );

    app.get('/user/dashboard', { schema: { tags: ['files'], response: { 200: DashboardResponse, 401: ErrorBody } } }, async (request) => ({
      storageInfo: await storage.storageInfo(caller(request).userId),
    }));

    app.get(
      '/files',
      { schema: { tags: ['files'], querystring: ListFilesQuery, response: { 200: FilesResponse, ...errors } } },
      async (request, reply) => {
        const { userId } = caller(request);
        const { search, folderId } = request.query;
        if (search) return { files: await files.search(userId, search) };
        const page = listingPage('files', request.query);
        // FilesResponse built from the database's stored entries: Fastify sends its bytes as they are.
        const body = page ? await files.listSortedJson(userId, rootOr(folderId), page) : await files.listJson(userId, rootOr(folderId));
        const json = body as unknown as Static<typeof FilesResponse>;
        return reply.type('application/json; charset=utf-8').send(json);
      },
    );

    app.post(
      '/files/upload',
      {
        // Everything that can refuse an upload without its bytes is decided before a client
        // waiting on Expect: 100-continue is told to send them (docs/decisions/0018-early-answers.md).
        config: { decidesContinue: true },
        schema: {
          tags: ['files'],
          consumes: ['multipart/form-data'],
          response: { 201: FileResponse, ...errors, 411: ErrorBody, 413: ErrorBody, 429: ErrorBody, 507: ErrorBody },
        },
      },
      async (request, reply) => {
        const { userId } = caller(request);
        if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data', 'NOT_MULTIPART');
        const declaredBytes = requireDeclaredLength(request.headers['content-length'], {
          allowEmpty: false,
          message: 'An upload needs a Content-Length header',
        });
        const body = multipartBody(request);
        // The rest of a body not read when the upload is refused is dropped after the answer (lib/early-answers.ts).
        const file = await uploads.receive({
          userId,
          declaredBytes,
          framing: 'multipart',
          // The folder is a field of the body: read first, unless the client waits for 100 Continue to send it.
          readsFolderFirst: request.headers.expect?.toLowerCase() !== '100-continue',
          onAccepted: () => continueWithBody(request, reply),
          content: body.content,
          rest: body.rest,
          cutOff: multipartCutOff(request),
        });
        return reply.code(201).send({ file });
      },
    );

    // Downloads serve the caller's own items and those in folders shared with them.
    app.get('/files/:id/download', { schema: { tags: ['files'], params: FileIdParams } }, async (request, reply) => {
      const { userId } = caller(request);
      const { file, ownerId } = await files.readableFile(userId, request.params.id);
      if (ownerId === userId) await recent.opened(userId, file.id);
      return downloads.sendFile(request, reply, file);
    });

    app.get('/user/folders/:id/download', { schema: { tags: ['files'], params: FolderIdParams } }, async (request, reply) => {
      const { ownerId } = await folders.readableFolder(caller(request).userId, request.params.id);
      return downloads.sendZip(request, reply, await folderArchives.archive(ownerId, request.params.id));
    });

    app.post(
      '/files/:id/download-link',
      { schema: { tags: ['files'], params: FileIdParams, response: { 200: DownloadLinkResponse, ...errors } } },
      async (request) => {
        const { userId } = caller(request);
        const { file, ownerId } = await files.readableFile(userId, request.params.id);
        // The viewer and the app's downloads come through here, once per file shown: the link's many range requests do not.
        if (ownerId === userId) await recent.opened(userId, file.id);
        return links.create({ kind: 'file', id: file.id, userId: ownerId });
      },
    );

    app.post(
      '/user/folders/:id/download-link',
      { schema: { tags: ['files'], params: FolderIdParams, response: { 200: DownloadLinkResponse, ...errors } } },
      async (request) => {
        const { ownerId } = await folders.readableFolder(caller(request).userId, request.params.id);
        return links.create({ kind: 'folder', id: request.params.id, userId: ownerId });
      },
    );

    app.patch(
      '/files/:id',
      { schema: { tags: ['files'], params: FileIdParams, body: UpdateFileBody, response: { 200: FileResponse, ...errors } } },
      async (request) => ({ file: await files.update(caller(request).userId, request.params.id, request.body) }),
    );
  };
}
