import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ByteRange } from '../../adapters/blob-store/blob-store.ts';
import { downloadContentType } from '../../lib/content-types.ts';
import { attachmentDisposition, parseRange } from '../../lib/download-headers.ts';
import type { FileRow } from './files.repository.ts';

/** Even if something rendered downloaded bytes, they could run nothing. */
const DOWNLOAD_CSP = "default-src 'none'; sandbox";

/**
 * A stored file as api.md's Downloads section says: attachment, a type that never renders
 * as a page, Content-Length, ETag with 304, Range with 206 and 416.
 */
export async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: FileRow,
  open: (range?: ByteRange) => Promise<Readable>,
): Promise<FastifyReply> {
  const size = Number(file.size);
  const etag = `"${file.sha256}"`;
  const range = parseRange(request.headers.range, size);
  if (range.kind === 'unsatisfiable') {
    return reply.code(416).header('Content-Range', `bytes */${size}`).send({ error: 'Range not satisfiable', code: 'RANGE_NOT_SATISFIABLE' });
  }
  reply.headers({
    'Content-Type': downloadContentType(file.mimetype),
    'Content-Disposition': attachmentDisposition(file.name),
    ETag: etag,
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'private, no-cache',
    'Content-Security-Policy': DOWNLOAD_CSP,
  });
  if (request.headers['if-none-match']?.split(',').some((tag) => tag.trim() === etag)) {
    return reply.code(304).send();
  }
  if (range.kind === 'range') {
    const body = await open({ start: range.start, end: range.end });
    return reply
      .code(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
      .header('Content-Length', range.end - range.start + 1)
      .send(body);
  }
  // The whole file as an exact range: the store then sizes its reads to the file.
  const body = await open(size > 0 ? { start: 0, end: size - 1 } : undefined);
  return reply.header('Content-Length', size).send(body);
}

/** A zip streamed as it is written. */
export function sendZip(reply: FastifyReply, archive: { name: string; body: Readable }): FastifyReply {
  return reply
    .headers({
      'Content-Type': 'application/zip',
      'Content-Disposition': attachmentDisposition(archive.name),
      'Cache-Control': 'private, no-store',
      'Content-Security-Policy': DOWNLOAD_CSP,
    })
    .send(archive.body);
}
