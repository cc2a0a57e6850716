import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { continueWithBody } from '../../lib/early-answers.ts';
import { AppError } from '../../lib/errors.ts';
import { folderIdOf } from '../files/uploads.service.ts';
import type { PublicUploadsService, ReceivingLink } from '../shares/public-uploads.service.ts';
import {
  answerBeforePatch,
  answerFinished,
  declaredLength,
  expires,
  parseMetadata,
  speakTus,
  TUS_VERSION,
} from './resumable-uploads.routes.ts';
import type { ResumableUploadsService } from './resumable-uploads.service.ts';
import type { TusRequestContext, TusServer } from './tus-server.ts';

const LinkParams = Type.Object({ token: Type.String({ maxLength: 256 }) });
const LinkUploadParams = Type.Object({ token: Type.String({ maxLength: 256 }), id: Type.String({ maxLength: 64 }) });

/** The visitor's pass after a password (public-shares.routes.ts): the X-Share-Access header. */
const accessOf = (request: FastifyRequest) => {
  const header = request.headers['x-share-access'];
  return typeof header === 'string' && header !== '' ? header : undefined;
};

/**
 * tus 1.0.0 through an upload or edit link, at /api/public/shares/:token/uploads (issue 38:
 * visitors "drop files of any size (resumable above a few MB)"). The upload is the link
 * owner's, made and finished by the same use-cases as the owner's own (resumable-uploads.
 * service.ts): the quota held at creation, the file listed once. Its URL carries the link's
 * token, and every request is checked against the link again (revoked, expired, password,
 * role), so only the holder of a live link reaches the uploads made through it. Each
 * finished file is counted on the link and told to the owner once (public-uploads.service.ts).
 */
export function linkUploadsRoutes(deps: {
  publicUploads: PublicUploadsService;
  resumableUploads: ResumableUploadsService;
  tus: TusServer;
}): FastifyPluginAsyncTypebox {
  const { publicUploads, resumableUploads, tus } = deps;
  return async (app) => {
    speakTus(app);
    const basePath = (token: string) => `/api/public/shares/${encodeURIComponent(token)}/uploads`;
    const toTus = async (request: FastifyRequest, reply: FastifyReply, context: TusRequestContext) => {
      reply.hijack();
      reply.raw.setHeader('X-Request-Id', request.id);
      await tus.handle(request.raw, reply.raw, context);
    };
    /** What tus is told of a request through the link: the upload is the owner's, its URL under the link, its end counted. */
    const contextOf = (token: string, link: ReceivingLink, uploadId: string): TusRequestContext => ({
      userId: link.ownerId,
      uploadId,
      basePath: basePath(token),
      finished: (file) => publicUploads.resumableFinished(link, uploadId, file),
      hidesFileId: true,
    });
    /** The link's upload, for this request: the link checked again, then the upload as its owner's (404 elsewhere, 410 expired). */
    const requireUpload = async (request: FastifyRequest, { token, id }: { token: string; id: string }) => {
      const link = await publicUploads.requireResumable(token, accessOf(request), id);
      return { link, row: await resumableUploads.requireOwn(link.ownerId, id) };
    };

    app.post(
      '/public/shares/:token/uploads',
      { config: { decidesContinue: true }, schema: { hide: true, params: LinkParams } },
      async (request, reply) => {
        const { token } = request.params;
        const length = declaredLength(request);
        const metadata = parseMetadata(request.headers['upload-metadata'] as string | undefined);
        const { link, folderId, uploaderName } = await publicUploads.prepareResumable(token, accessOf(request), request.ip, {
          folderId: folderIdOf(metadata.folderId),
          uploaderName: metadata.uploaderName ?? undefined,
        });
        // Never over the owner's file: a taken name gets "name (1).ext".
        const created = await resumableUploads.create(link.ownerId, {
          length,
          metadata: { filename: metadata.filename ?? null, filetype: metadata.filetype ?? null, folderId, conflict: 'keep-both' },
        });
        await publicUploads.recordResumable(link, created.id, uploaderName);
        continueWithBody(request, reply);
        expires(reply, created.expiresAt);
        await toTus(request, reply, contextOf(token, link, created.id));
      },
    );

    app.head('/public/shares/:token/uploads/:id', { schema: { hide: true, params: LinkUploadParams } }, async (request, reply) => {
      const { link, row } = await requireUpload(request, request.params);
      const finished = row.file_id === null ? await resumableUploads.finishIfComplete(link.ownerId, row) : undefined;
      if (finished) await publicUploads.resumableFinished(link, row.id, finished);
      if (row.file_id !== null || finished) return answerFinished(reply, Number(row.length), null, 200);
      expires(reply, row.expires_at);
      await toTus(request, reply, contextOf(request.params.token, link, row.id));
    });

    app.patch(
      '/public/shares/:token/uploads/:id',
      { config: { decidesContinue: true }, schema: { hide: true, params: LinkUploadParams } },
      async (request, reply) => {
        const { link, row } = await requireUpload(request, request.params);
        const answered = answerBeforePatch(request, reply, row, { hidesFileId: true });
        if (answered) return answered;
        await toTus(request, reply, contextOf(request.params.token, link, row.id));
      },
    );

    // A visitor's cancel: the bytes go and the owner's quota comes back before the answer.
    app.delete('/public/shares/:token/uploads/:id', { schema: { hide: true, params: LinkUploadParams } }, async (request, reply) => {
      const { row } = await requireUpload(request, request.params);
      if (row.file_id !== null) throw new AppError(400, 'UPLOAD_FINISHED', 'This upload is finished: it is a file of the folder now');
      await resumableUploads.terminate(row);
      return reply.code(204).header('Tus-Resumable', TUS_VERSION).send();
    });
  };
}
