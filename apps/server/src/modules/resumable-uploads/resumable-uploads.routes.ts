import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { caller } from '../../lib/auth.ts';
import { continueWithBody } from '../../lib/early-answers.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { requireDeclaredLength } from '../files/uploads.service.ts';
import type { ResumableUploadRow } from './resumable-uploads.repository.ts';
import type { ResumableUploadsService } from './resumable-uploads.service.ts';
import type { TusServer } from './tus-server.ts';

export const TUS_VERSION = '1.0.0';
export const OCTET_STREAM = 'application/offset+octet-stream';
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** tus's Upload-Metadata: `key base64,key base64,key` (a key without a value is allowed). */
export function parseMetadata(header: string | undefined): Record<string, string | null> {
  const metadata: Record<string, string | null> = {};
  if (!header) return metadata;
  for (const pair of header.split(',')) {
    const [key, value, extra] = pair.trim().split(' ');
    if (!key || extra !== undefined || (value !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(value)))
      throw badRequest('Upload-Metadata is not valid', 'INVALID_METADATA');
    metadata[key] = value === undefined ? null : Buffer.from(value, 'base64').toString('utf8');
  }
  return metadata;
}

/** Upload-Length: the file's exact size, from which the quota is held (deferred lengths are not supported). */
export const declaredLength = (request: FastifyRequest) =>
  requireDeclaredLength(request.headers['upload-length'] as string | undefined, {
    allowEmpty: true,
    message: 'A resumable upload needs an Upload-Length header (deferred lengths are not supported)',
  });

/**
 * The protocol's rules for a plugin of tus routes (this one, and a link's in
 * link-uploads.routes.ts): the body untouched, no query string, Tus-Resumable on every request.
 */
export function speakTus(app: FastifyInstance): void {
  // The bytes go to tus untouched, whatever their type says.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  // The router stops reading the path at `?` or `#`, where a library reading the whole
  // URL would go on to a second id; no tus URL has either, so neither is taken.
  app.addHook('onRequest', async (request) => {
    if (/[?#]/.test(request.raw.url ?? '')) throw badRequest('An upload URL takes no query string or fragment', 'INVALID_UPLOAD_URL');
  });
  // Every request but OPTIONS names the protocol version; the 412 tells which one we speak.
  // Checked here, not by tus, so that the answer has Tus-Version on every route.
  app.addHook('preHandler', async (request) => {
    if (request.method === 'OPTIONS' || request.headers['tus-resumable'] === TUS_VERSION) return;
    throw new AppError(
      412,
      'TUS_RESUMABLE_REQUIRED',
      `Send Tus-Resumable: ${TUS_VERSION}`,
      {},
      { 'Tus-Resumable': TUS_VERSION, 'Tus-Version': TUS_VERSION },
    );
  });
}

/**
 * A finished upload's answer to HEAD (200) or to a repeated last PATCH (204), naming the
 * file it became unless `fileId` is null (a link's visitor is not told the owner's ids).
 */
export const answerFinished = (reply: FastifyReply, length: number, fileId: string | null, status: 200 | 204) =>
  reply
    .code(status)
    .headers({
      'Tus-Resumable': TUS_VERSION,
      'Upload-Offset': String(length),
      'Upload-Length': String(length),
      ...(fileId === null ? {} : { 'X-File-Id': fileId }),
      'Cache-Control': 'no-store',
    })
    .send();

export const expires = (reply: FastifyReply, expiresAt: string) => reply.raw.setHeader('Upload-Expires', new Date(expiresAt).toUTCString());

/**
 * A PATCH to a known upload (this route's and a link's), before tus reads its bytes: a retry
 * of the last PATCH whose answer was lost gets the same answer again (the reply, sent); a
 * finished upload is otherwise 409 and bytes of another type 415; else the client is told to
 * send them (undefined: on to tus).
 */
export function answerBeforePatch(
  request: FastifyRequest,
  reply: FastifyReply,
  row: Pick<ResumableUploadRow, 'file_id' | 'length' | 'expires_at'>,
  { hidesFileId = false }: { hidesFileId?: boolean } = {},
): FastifyReply | undefined {
  if (row.file_id !== null && request.headers['upload-offset'] === String(row.length))
    return answerFinished(reply, Number(row.length), hidesFileId ? null : row.file_id, 204);
  if (row.file_id !== null) throw new AppError(409, 'UPLOAD_OFFSET_CONFLICT', 'The upload is finished already');
  // tus would refuse it 400 in plain text; the protocol asks for 415.
  if (request.headers['content-type'] !== OCTET_STREAM)
    throw new AppError(415, 'INVALID_CONTENT_TYPE', `A PATCH sends its bytes as ${OCTET_STREAM}`);
  continueWithBody(request, reply);
  expires(reply, row.expires_at);
  return undefined;
}

/**
 * tus 1.0.0 at /api/uploads (docs/decisions/0025-resumable-uploads.md). Fastify authenticates
 * and applies our rules with our error bodies; the body is never parsed here: tus reads the
 * raw request and answers on the raw response.
 */
export function resumableUploadsRoutes(deps: { resumableUploads: ResumableUploadsService; tus: TusServer }): FastifyPluginAsyncTypebox {
  const { resumableUploads, tus } = deps;
  return async (app) => {
    speakTus(app);
    /** `uploadId`: the id this route checked, a new upload's or the caller's own; tus acts on that one alone. */
    const toTus = async (request: FastifyRequest, reply: FastifyReply, uploadId?: string) => {
      reply.hijack();
      reply.raw.setHeader('X-Request-Id', request.id);
      await tus.handle(request.raw, reply.raw, { userId: request.auth?.userId ?? '', uploadId });
    };

    // OPTIONS tells what the server supports; it needs no account.
    app.options('/uploads', { schema: { hide: true } }, (request, reply) => toTus(request, reply));
    app.options('/uploads/:id', { schema: { hide: true } }, (request, reply) => toTus(request, reply));

    app.post(
      '/uploads',
      { onRequest: app.requireUser, config: { decidesContinue: true }, schema: { hide: true } },
      async (request, reply) => {
        const { userId } = caller(request);
        const created = await resumableUploads.create(userId, {
          length: declaredLength(request),
          metadata: parseMetadata(request.headers['upload-metadata'] as string | undefined),
        });
        continueWithBody(request, reply);
        expires(reply, created.expiresAt);
        await toTus(request, reply, created.id);
      },
    );

    app.head('/uploads/:id', { onRequest: app.requireUser, schema: { hide: true, params: IdParams } }, async (request, reply) => {
      const { userId } = caller(request);
      const row = await resumableUploads.requireOwn(userId, request.params.id);
      const fileId = row.file_id ?? (await resumableUploads.finishIfComplete(userId, row))?.id;
      if (fileId) return answerFinished(reply, Number(row.length), fileId, 200);
      expires(reply, row.expires_at);
      await toTus(request, reply, row.id);
    });

    const patchUpload = async (request: FastifyRequest, reply: FastifyReply, id: string) => {
      const row = await resumableUploads.requireOwn(caller(request).userId, id);
      const answered = answerBeforePatch(request, reply, row);
      if (answered) return answered;
      await toTus(request, reply, row.id);
    };
    const terminateUpload = async (request: FastifyRequest, reply: FastifyReply, id: string) => {
      const row = await resumableUploads.requireOwn(caller(request).userId, id);
      if (row.file_id !== null) throw new AppError(400, 'UPLOAD_FINISHED', 'A finished upload is a file: delete the file instead');
      await resumableUploads.terminate(row);
      return reply.code(204).header('Tus-Resumable', TUS_VERSION).send();
    };
    app.patch(
      '/uploads/:id',
      { onRequest: app.requireUser, config: { decidesContinue: true }, schema: { hide: true, params: IdParams } },
      (request, reply) => patchUpload(request, reply, request.params.id),
    );
    app.delete('/uploads/:id', { onRequest: app.requireUser, schema: { hide: true, params: IdParams } }, (request, reply) =>
      terminateUpload(request, reply, request.params.id),
    );
    // tus 1.0.0: a client that cannot send PATCH or DELETE (tus-js-client's and Uppy's
    // overridePatchMethod) POSTs with the method in X-HTTP-Method-Override, which wins.
    app.post(
      '/uploads/:id',
      { onRequest: app.requireUser, config: { decidesContinue: true }, schema: { hide: true, params: IdParams } },
      async (request, reply) => {
        const method = String(request.headers['x-http-method-override'] ?? '').toUpperCase();
        if (method === 'DELETE') return terminateUpload(request, reply, request.params.id);
        if (method !== 'PATCH')
          throw new AppError(
            405,
            'METHOD_NOT_ALLOWED',
            'An upload takes HEAD, PATCH and DELETE (or POST with X-HTTP-Method-Override)',
            {},
            { Allow: 'OPTIONS, HEAD, PATCH, DELETE, POST' },
          );
        // tus's handler dispatches on the raw request's method.
        request.raw.method = 'PATCH';
        return patchUpload(request, reply, request.params.id);
      },
    );
  };
}
