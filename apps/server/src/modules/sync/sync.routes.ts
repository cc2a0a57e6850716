import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import {
  SYNC_DOWNLOADS_TYPE,
  SYNC_TREE_TYPE,
  SYNC_UPLOAD_MAX_BYTES,
  SyncDownloadsBody,
  SyncTreeQuery,
  SyncUploadsResponse,
} from '@cloudvault/contract/sync';
import { formatBytes } from '@cloudvault/contract/format';
import { caller } from '../../lib/auth.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { multipartCutOff } from '../../lib/multipart-parts.ts';
import { requireDeclaredLength } from '../files/uploads.service.ts';
import { writeFilesStream } from './files-stream.ts';
import { ndjsonStream } from './ndjson.ts';
import type { SyncDownloadsService } from './sync-downloads.service.ts';
import { batchEntries } from './sync-upload-parts.ts';
import type { SyncTreeService } from './sync-tree.service.ts';
import type { SyncUploadsService } from './sync-uploads.service.ts';

/** The sync client's routes (docs/api.md#sync): the whole tree at once, and files in batches. */
export function syncRoutes(deps: {
  tree: SyncTreeService;
  uploads: SyncUploadsService;
  downloads: SyncDownloadsService;
}): FastifyPluginAsyncTypebox {
  const { tree, uploads, downloads } = deps;
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get(
      '/sync/tree',
      { schema: { tags: ['sync'], querystring: SyncTreeQuery, response: { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody } } },
      async (request, reply) => {
        const lines = await tree.open(caller(request).userId, request.query.folderId);
        // Fastify pipes a stream rather than serializing it: the lines are the contract's shapes (SyncTreeLine).
        return reply
          .type(SYNC_TREE_TYPE)
          .header('cache-control', 'no-store')
          .send(ndjsonStream(lines) as never);
      },
    );

    app.post(
      '/sync/uploads',
      {
        schema: {
          tags: ['sync'],
          consumes: ['multipart/form-data'],
          response: { 200: SyncUploadsResponse, 400: ErrorBody, 401: ErrorBody, 411: ErrorBody, 413: ErrorBody },
        },
      },
      async (request) => {
        if (!request.isMultipart()) throw badRequest('Send the files as multipart/form-data', 'NOT_MULTIPART');
        const declared = requireDeclaredLength(request.headers['content-length'], {
          allowEmpty: false,
          message: 'A batch of uploads needs a Content-Length header',
        });
        if (declared > SYNC_UPLOAD_MAX_BYTES)
          throw new AppError(
            413,
            'BATCH_TOO_LARGE',
            `A batch can be at most ${formatBytes(SYNC_UPLOAD_MAX_BYTES)}: send bigger files through tus`,
          );
        const cutOff = multipartCutOff(request);
        try {
          return { results: await uploads.receiveBatch(caller(request).userId, batchEntries(request)) };
        } catch (error) {
          // A body that broke off or is not multipart: the request's fault, answered as such.
          if (!(error instanceof AppError) && (cutOff.clientGone() || cutOff.isMalformed(error))) throw cutOff.answer();
          throw error;
        }
      },
    );

    app.post(
      '/sync/downloads',
      { schema: { tags: ['sync'], body: SyncDownloadsBody, response: { 400: ErrorBody, 401: ErrorBody } } },
      async (request, reply) => {
        const entries = downloads.entries(caller(request).userId, request.body.ids);
        reply.hijack();
        const raw = reply.raw;
        raw.writeHead(200, {
          ...(reply.getHeaders() as Record<string, string>),
          'content-type': SYNC_DOWNLOADS_TYPE,
          'cache-control': 'no-store',
        });
        try {
          await writeFilesStream(raw, entries);
          raw.end();
        } catch (error) {
          // Cut, not ended: a client reading a file's bytes sees the connection go, never a short file taken as whole.
          if (!raw.destroyed) request.log.error({ err: error }, 'sync download stopped');
          raw.destroy();
        }
      },
    );
  };
}
