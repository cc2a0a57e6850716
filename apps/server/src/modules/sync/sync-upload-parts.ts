import { Compile } from 'typebox/compile';
import type { FastifyRequest } from 'fastify';
import { SYNC_UPLOAD_MAX_FILES, SyncUploadMeta } from '@cloudvault/contract/sync';
import { AppError, badRequest } from '../../lib/errors.ts';
import type { MultipartFile } from '../../lib/multipart-parts.ts';

const checkMeta = Compile(SyncUploadMeta);

/** One file of a batch: what its `meta` field says (or why it cannot be read), and its bytes. */
export interface BatchEntry {
  meta: SyncUploadMeta | AppError;
  file: MultipartFile;
}

const malformedBatch = (message: string) => badRequest(message, 'INVALID_BATCH');

/** A `meta` field's text as the contract's shape, or the per-file 400 that says what is wrong with it. */
function parseMeta(value: unknown, truncated: boolean): SyncUploadMeta | AppError {
  if (truncated) return badRequest('The meta field is too long', 'INVALID_META');
  let meta: unknown = value;
  if (typeof value === 'string') {
    try {
      meta = JSON.parse(value);
    } catch {
      return badRequest('The meta field is not JSON', 'INVALID_META');
    }
  }
  if (!checkMeta.Check(meta)) return badRequest('The meta field must be {"folderId", "name", "conflict"?, "contentHash"?}', 'INVALID_META');
  return meta;
}

/** Reads a part's file to its end without keeping it: the next part comes only once it is read. */
async function drain(file: NodeJS.ReadableStream & { readableEnded?: boolean; destroyed?: boolean }): Promise<void> {
  if (file.readableEnded || file.destroyed) return;
  file.resume();
  await new Promise<void>((resolve) => {
    file.once('end', resolve);
    file.once('close', resolve);
    file.once('error', () => resolve());
  });
}

/**
 * POST /api/sync/uploads' body (multipart/form-data): a `meta` field, then its `file` part,
 * again and again. Yields each file as its part arrives; the consumer reads its bytes (or
 * not: what it leaves is drained before the next part). A body that is not that shape ends
 * the request with 400 INVALID_BATCH, a file past the 1,000th with 413 TOO_MANY_FILES.
 */
export async function* batchEntries(request: FastifyRequest): AsyncGenerator<BatchEntry> {
  const parts = request.parts({
    limits: {
      fileSize: Number.POSITIVE_INFINITY,
      // One more than allowed of each, so the one too many is seen and refused in words.
      files: SYNC_UPLOAD_MAX_FILES + 1,
      fields: SYNC_UPLOAD_MAX_FILES + 1,
      parts: 2 * SYNC_UPLOAD_MAX_FILES + 2,
      fieldSize: 8 * 1024,
    },
  });
  let meta: SyncUploadMeta | AppError | undefined;
  let count = 0;
  for await (const part of parts) {
    if (part.type === 'field') {
      if (part.fieldname !== 'meta')
        throw malformedBatch(`Unexpected field "${part.fieldname.slice(0, 100)}": send meta, then file, for each file`);
      if (meta !== undefined) throw malformedBatch('Each meta field must be followed by its file part');
      meta = parseMeta(part.value, part.valueTruncated);
      continue;
    }
    if (meta === undefined) {
      part.file.resume();
      throw malformedBatch('Each file part must follow its meta field');
    }
    count += 1;
    if (count > SYNC_UPLOAD_MAX_FILES) {
      part.file.resume();
      throw new AppError(413, 'TOO_MANY_FILES', `Send at most ${SYNC_UPLOAD_MAX_FILES} files in one request`);
    }
    yield {
      meta,
      file: { fileName: part.filename ?? '', declaredMimetype: part.mimetype, body: part.file },
    };
    meta = undefined;
    await drain(part.file);
  }
  if (meta !== undefined) throw malformedBatch('The last meta field has no file part');
}
