import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ErrorBody } from '@cloudvault/contract/common';
import { PasswordRequiredBody, PublicUploadResponse, ShareTokenParams } from '@cloudvault/contract/shares';
import { continueWithBody } from '../../lib/early-answers.ts';
import { badRequest } from '../../lib/errors.ts';
import { multipartCutOff, multipartParts } from '../../lib/multipart-parts.ts';
import { folderIdOf, requireDeclaredLength } from '../files/uploads.service.ts';
import type { LinkUploadContent, PublicUploadsService } from './public-uploads.service.ts';

/** The visitor's pass after a password (public-shares.routes.ts): the X-Share-Access header. */
const accessOf = (request: FastifyRequest) => {
  const header = request.headers['x-share-access'];
  return typeof header === 'string' && header !== '' ? header : undefined;
};

/** A visitor's multipart body: the `uploaderName` and `folderId` fields before the file; any other is ignored, as the owner's `conflict`. */
function linkMultipartBody(request: FastifyRequest): { content(): Promise<LinkUploadContent>; rest(): Promise<void> } {
  const parts = multipartParts(request, { uploaderName: String, folderId: folderIdOf });
  return {
    async content() {
      const { fields, ...file } = await parts.content();
      return { uploaderName: fields.uploaderName, folderId: fields.folderId ?? null, ...file };
    },
    rest: parts.rest,
  };
}

/**
 * Files sent through an upload or edit link (docs/api.md#public-shares): no account, the
 * link's token (and its pass, for a protected link) is the permission. Refused before the
 * body as the owner's own uploads are (docs/decisions/0018-early-answers.md).
 */
export function publicUploadsRoutes(deps: { publicUploads: PublicUploadsService }): FastifyPluginAsyncTypebox {
  const { publicUploads } = deps;
  return async (app) => {
    app.post(
      '/public/shares/:token/files',
      {
        config: { decidesContinue: true },
        schema: {
          tags: ['public shares'],
          consumes: ['multipart/form-data'],
          params: ShareTokenParams,
          response: {
            201: PublicUploadResponse,
            400: ErrorBody,
            401: PasswordRequiredBody,
            403: ErrorBody,
            404: ErrorBody,
            410: ErrorBody,
            411: ErrorBody,
            413: ErrorBody,
            429: ErrorBody,
            507: ErrorBody,
          },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data', 'NOT_MULTIPART');
        const declaredBytes = requireDeclaredLength(request.headers['content-length'], {
          allowEmpty: false,
          message: 'An upload needs a Content-Length header',
        });
        const body = linkMultipartBody(request);
        const answer = await publicUploads.receive(request.params.token, accessOf(request), request.ip, {
          declaredBytes,
          onAccepted: () => continueWithBody(request, reply),
          content: body.content,
          rest: body.rest,
          cutOff: multipartCutOff(request),
        });
        return reply.code(201).send(answer);
      },
    );
  };
}
