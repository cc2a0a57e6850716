import type { FastifyRequest } from 'fastify';
import { multipartParts } from '../../lib/multipart-parts.ts';
// Where the multipart ways in (this one, a link's in shares) find it; files.routes.ts imports it from here.
export { isBrokenMultipartError } from '../../lib/broken-multipart.ts';
import { folderIdOf, nameConflictOf, type UploadContent } from './uploads.service.ts';

/** The owner's multipart way in: the `folderId` and `conflict` fields before the file. */
export function multipartBody(request: FastifyRequest): { content(): Promise<UploadContent>; rest(): Promise<void> } {
  const parts = multipartParts(request, { folderId: folderIdOf, conflict: nameConflictOf });
  return {
    async content() {
      const { fields, ...file } = await parts.content();
      return { folderId: fields.folderId ?? null, conflict: fields.conflict, ...file };
    },
    rest: parts.rest,
  };
}
