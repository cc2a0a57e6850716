import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../lib/errors.ts';
// Where the multipart ways in (this one, a link's in shares) find it; files.routes.ts imports it from here.
export { isBrokenMultipartError } from '../../lib/broken-multipart.ts';
import { folderIdOf, nameConflictOf, type UploadContent } from './uploads.service.ts';

/**
 * The multipart way in's reading of its body: the `folderId` and `conflict` fields, then
 * exactly one file part (content), then nothing but ignored fields (rest).
 */
export function multipartBody(request: FastifyRequest): { content(): Promise<UploadContent>; rest(): Promise<void> } {
  let parts: AsyncIterator<Multipart> | undefined;
  const next = async (): Promise<Multipart | undefined> => {
    // Parsing starts with the first part asked for: only once the upload is accepted.
    const limits = { fileSize: Number.POSITIVE_INFINITY, fields: 10, fieldSize: 1024, parts: 20 };
    parts ??= request.parts({ limits })[Symbol.asyncIterator]();
    const { done, value } = await parts.next();
    return done ? undefined : value;
  };
  return {
    async content() {
      let folderId: string | null = null;
      let conflict: UploadContent['conflict'];
      for (let part = await next(); part; part = await next()) {
        if (part.type === 'field') {
          if (part.fieldname === 'folderId') folderId = folderIdOf(String(part.value));
          if (part.fieldname === 'conflict') conflict = nameConflictOf(String(part.value));
          continue;
        }
        return {
          folderId,
          conflict,
          // Browsers escape a double quote in a multipart filename as %22 (HTML spec).
          // busboy takes an application/octet-stream part without a filename as a file too.
          fileName: (part.filename ?? '').replaceAll('%22', '"'),
          declaredMimetype: part.mimetype,
          body: part.file,
        };
      }
      throw badRequest('The upload has no file part', 'NO_FILE');
    },
    async rest() {
      for (let part = await next(); part; part = await next()) {
        if (part.type === 'field') {
          if (part.fieldname === 'folderId' || part.fieldname === 'conflict')
            throw badRequest(`${part.fieldname} must come before the file`, 'FIELD_AFTER_FILE');
          continue;
        }
        part.file.resume();
        throw badRequest('Send one file per upload', 'MORE_THAN_ONE_FILE');
      }
    },
  };
}
