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
  type FileItem,
  ListFilesQuery,
  UpdateFileBody,
  UploadConfig,
} from '@cloudvault/contract/files';
import { FolderIdParams } from '@cloudvault/contract/folders';
import { caller } from '../../lib/auth.ts';
import { continueWithBody } from '../../lib/early-answers.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import type { FolderArchiveService } from './folder-archive.service.ts';
import { type FoldersService, rootOr } from '../folders/folders.service.ts';
import type { DownloadLinks } from '../downloads/download-links.ts';
import type { DownloadResponses } from '../downloads/download-responses.ts';
import type { FilesService } from './files.service.ts';
import type { StorageService } from './storage.service.ts';
import type { UploadsService } from './uploads.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A broken or cut-off body: busboy reports one with a plain Error (no code, no other name
 * or class), or closes the file part early. System errors (ENOSPC, EIO), the addon's, the
 * databases' and S3's errors and bugs carry a code, a name or a class of their own; a
 * plain Error from elsewhere (a PostgreSQL connection lost) still reads as the body's.
 */
function isBrokenBodyError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as NodeJS.ErrnoException;
  if (code === 'ERR_STREAM_PREMATURE_CLOSE') return true;
  return code === undefined && error.name === 'Error' && Object.getPrototypeOf(error) === Error.prototype;
}

export function filesRoutes(deps: {
  files: FilesService;
  uploads: UploadsService;
  storage: StorageService;
  folderArchives: FolderArchiveService;
  folders: Pick<FoldersService, 'readableFolder'>;
  links: DownloadLinks;
  downloads: DownloadResponses;
}): FastifyPluginAsyncTypebox {
  const { files, uploads, storage, folderArchives, folders, links, downloads } = deps;
  return async (app) => {
    links.serve('file', async ({ userId, id }) => ({ type: 'file', file: await files.requireFile(userId, id) }));
    links.serve('folder', async ({ userId, id }) => ({ type: 'zip', archive: await folderArchives.archive(userId, id) }));
    app.addHook('onRequest', app.requireUser);

    app.get(
      '/files/upload-config',
      { schema: { tags: ['files'], response: { 200: UploadConfig, 401: ErrorBody } } },
      async (request) => storage.uploadConfig(caller(request).userId),
    );

    app.get(
      '/user/dashboard',
      { schema: { tags: ['files'], response: { 200: DashboardResponse, 401: ErrorBody } } },
      async (request) => ({ storageInfo: await storage.storageInfo(caller(request).userId) }),
    );

    app.get(
      '/files',
      { schema: { tags: ['files'], querystring: ListFilesQuery, response: { 200: FilesResponse, ...errors } } },
      async (request, reply) => {
        const { userId } = caller(request);
        const { search, folderId } = request.query;
        if (search) return { files: await files.search(userId, search) };
        // FilesResponse built by the database: Fastify sends its bytes as they are.
        const json = (await files.listJson(userId, rootOr(folderId))) as unknown as Static<typeof FilesResponse>;
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
        const declaredBytes = Number(request.headers['content-length']);
        if (!Number.isSafeInteger(declaredBytes) || declaredBytes <= 0) {
          throw new AppError(411, 'LENGTH_REQUIRED', 'An upload needs a Content-Length header');
        }
        const reservation = await uploads.reserve(userId, declaredBytes);
        let stored: FileItem | undefined;
        try {
          continueWithBody(request, reply);
          let folderId: string | null = null;
          const parts = request.parts({ limits: { fileSize: Number.POSITIVE_INFINITY, fields: 10, fieldSize: 1024, parts: 20 } });
          for await (const part of parts) {
            if (part.type === 'field') {
              if (part.fieldname !== 'folderId') continue;
              if (stored) throw badRequest('folderId must come before the file', 'FIELD_AFTER_FILE');
              const value = String(part.value);
              if (value !== '' && value !== 'null' && !ID_PATTERN.test(value)) throw badRequest('folderId is not a valid id');
              folderId = rootOr(value);
              continue;
            }
            if (stored) {
              part.file.resume();
              await uploads.discard(userId, stored);
              throw badRequest('Send one file per upload', 'MORE_THAN_ONE_FILE');
            }
            stored = await uploads.upload({
              userId,
              folderId,
              // Browsers escape a double quote in a multipart filename as %22 (HTML spec).
              // busboy takes an application/octet-stream part without a filename as a file too.
              fileName: (part.filename ?? '').replaceAll('%22', '"'),
              declaredMimetype: part.mimetype,
              body: part.file,
              reservation,
            });
          }
          if (!stored) throw badRequest('The upload has no file part', 'NO_FILE');
          return reply.code(201).send({ file: stored });
        } catch (error) {
          // Whatever this request stored is removed when it fails after all. The rest of a
          // body not read yet is dropped after the answer (lib/early-answers.ts).
          if (stored) await uploads.discard(userId, stored);
          if (error instanceof AppError || (error as { statusCode?: number }).statusCode) throw error;
          // A client that goes away mid-upload is routine, not a fault of ours or theirs to look
          // into (Node reports it as ECONNRESET, busboy as a body that ended early).
          if (request.raw.aborted || request.raw.socket.destroyed) request.log.info({ err: error }, 'upload stopped by the client');
          // The disk, the database, the blob store or a bug: a 500, logged as an error.
          else if (!isBrokenBodyError(error)) throw error;
          else request.log.warn({ err: error }, 'malformed multipart upload');
          throw badRequest('The upload is not a valid multipart/form-data body', 'MALFORMED_MULTIPART');
        } finally {
          // Given back unless the upload settled it with the file's listing.
          await uploads.release(reservation);
        }
      },
    );

    // Downloads serve the caller's own items and those in folders shared with them.
    app.get('/files/:id/download', { schema: { tags: ['files'], params: FileIdParams } }, async (request, reply) => {
      const { file } = await files.readableFile(caller(request).userId, request.params.id);
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
        const { file, ownerId } = await files.readableFile(caller(request).userId, request.params.id);
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
