import type { FastifyRequest } from 'fastify';
import { multipartParts } from '../../lib/multipart-parts.ts';
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
