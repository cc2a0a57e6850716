import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from '../../adapters/blob-store/blob-store.ts';
import type { LocalFiles } from '../../adapters/blob-store/local-blob-store.ts';
import type { PresignedUrls } from '../../adapters/blob-store/s3-presigned-urls.ts';
import type { Clock } from '../../lib/clock.ts';
import { downloadContentType } from '../../lib/content-types.ts';
import { attachmentDisposition, ifRangeHolds, parseRange } from '../../lib/download-headers.ts';
import { serverBusy } from '../../lib/errors.ts';
import type { TransferBudget } from '../../lib/transfer-budget.ts';
import type { ZipArchive } from '../../lib/zip-writer.ts';
import { createLocalSendfile, type ResponseSource } from './local-sendfile.ts';
import { createPresignedRedirects } from './presigned-redirects.ts';

/** Even if something rendered downloaded bytes, they could run nothing. */
const DOWNLOAD_CSP = "default-src 'none'; sandbox";
/** A file's bytes may be cached by the browser, which revalidates them by ETag. */
const FILE_CACHE_CONTROL = 'private, no-cache';

/**
 * A thumbnail's URL carries its file's contentTag (docs/decisions/0023-thumbnails.md), so it
 * changes with the content: browsers may keep one for a week without asking again.
 */
const THUMBNAIL_CACHE_CONTROL = 'private, max-age=604800';

/** Stored bytes as they are served: a row of files or of file_versions fits. */
export interface DownloadableFile {
  name: string;
  mimetype: string;
  size: number;
  sha256: string;
  blob_key: string;
}

/** A zip written as it is read, and the name it is saved under. */
export interface DownloadableZip {
  name: string;
  zip: ZipArchive;
}

/** What a download route sends: a stored file, or a zip. */
export type Download = { type: 'file'; file: DownloadableFile } | { type: 'zip'; archive: DownloadableZip };

/**
 * Every download's response, whichever module it belongs to (files, folder zips, public
 * shares, versions, the account export): the headers of docs/api.md#downloads, and bodies
 * within the transfer memory budget, sent with sendfile where `localFiles` (given for a
 * local store only) and the native addon allow, otherwise through the store's stream; or,
 * given `presignedUrls` (an S3 store with S3_PRESIGNED_DOWNLOADS), a file is a redirect to
 * the store once every check has passed.
 */
export function createDownloadResponses(deps: {
  blobs: Pick<BlobStore, 'open'>;
  budget: TransferBudget;
  localFiles?: LocalFiles;
  presignedUrls?: PresignedUrls;
  clock: Clock;
}) {
  const sendfile = createLocalSendfile(deps.localFiles);
  const redirects = createPresignedRedirects(deps.presignedUrls, deps.clock);

  /** Reserves what a transfer may buffer from the server's budget, or refuses it with 503 while its headers can still say so. */
  function takeTransferMemory(request: FastifyRequest, bytes: number): () => void {
    const release = deps.budget.take(bytes);
    if (!release) {
      request.log.warn({ bytes, inUse: deps.budget.inUse }, 'download refused: the transfer memory budget is spent');
      throw serverBusy();
    }
    return release;
  }

  /** Whether the client's If-None-Match names this ETag (then a 304 answers). */
  function clientHas(request: FastifyRequest, etag: string): boolean {
    return request.headers['if-none-match']?.split(',').some((tag) => tag.trim() === etag) ?? false;
  }

  /**
   * Sends an opened source as the body. Its buffers are reserved before `setHeaders` runs,
   * so that a refusal is plain JSON; the source is closed whatever happens.
   */
  async function streamSource(
    request: FastifyRequest,
    reply: FastifyReply,
    source: ResponseSource,
    setHeaders: () => void,
  ): Promise<FastifyReply> {
    let release: () => void;
    try {
      release = takeTransferMemory(request, source.bufferBytes);
    } catch (error) {
      await source.close();
      throw error;
    }
    setHeaders();
    try {
      return await sendBody(request, reply, (response) => source.writeTo(response));
    } finally {
      release();
      await source.close();
    }
  }

  /**
   * A stored file as docs/api.md#downloads says: attachment, a type that never renders
   * as a page, Content-Length, ETag with 304, Range with 206 and 416, and a Range whose
   * If-Range names another version answered with the whole file. With presigned URLs, 304
   * and 416 are still answered here, and the bytes by the store after a 302, unless
   * `redirect` is false (WebDAV clients, which may not follow one). `etag` replaces the
   * content hash as the ETag where a protocol reports its own (WebDAV's getetag).
   * `display` (a type from shares/display-types.ts) shows the bytes instead, for a link that must
   * not hand out a download: inline, never stored by the browser (no-store, so no 304),
   * never redirected to a store whose URL would be a download of its own.
   */
  async function sendFile(
    request: FastifyRequest,
    reply: FastifyReply,
    file: DownloadableFile,
    options: { redirect?: boolean; etag?: string; display?: string } = {},
  ): Promise<FastifyReply> {
    const size = Number(file.size);
    const etag = options.etag ?? `"${file.sha256}"`;
    const range = ifRangeHolds(request.headers['if-range'], etag) ? parseRange(request.headers.range, size) : ({ kind: 'whole' } as const);
    if (range.kind === 'unsatisfiable') {
      return reply
        .code(416)
        .header('Content-Range', `bytes */${size}`)
        .send({ error: 'Range not satisfiable', code: 'RANGE_NOT_SATISFIABLE' });
    }
    const { display } = options;
    const headers = {
      'Content-Type': display ?? downloadContentType(file.mimetype),
      'Content-Disposition': display ? attachmentDisposition(file.name).replace(/^attachment/, 'inline') : attachmentDisposition(file.name),
      ETag: etag,
      'Accept-Ranges': 'bytes',
      'Cache-Control': display ? 'no-store' : FILE_CACHE_CONTROL,
      'Content-Security-Policy': DOWNLOAD_CSP,
      'X-Content-Type-Options': 'nosniff',
    };
    if (!display && clientHas(request, etag)) return reply.code(304).headers(headers).send();
    const location =
      options.redirect === false || display
        ? undefined
        : await redirects.locationFor(request, file.blob_key, range, {
            contentType: headers['Content-Type'],
            contentDisposition: headers['Content-Disposition'],
            cacheControl: FILE_CACHE_CONTROL,
          });
    // The redirect names a URL that works for minutes for whoever holds it: never cached.
    if (location) return reply.code(302).header('Location', location).header('Cache-Control', 'private, no-store').send();
    // The whole file as an exact range: the store then sizes its reads to the file.
    const bytes = range.kind === 'range' ? { start: range.start, end: range.end } : size > 0 ? { start: 0, end: size - 1 } : undefined;
    const source: ResponseSource = (await sendfile.open(file.blob_key, bytes)) ?? (await deps.blobs.open(file.blob_key, bytes));
    return streamSource(request, reply, source, () => {
      reply.headers(headers);
      if (range.kind === 'range') {
        reply
          .code(206)
          .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
          .header('Content-Length', range.end - range.start + 1);
      } else {
        reply.header('Content-Length', size);
      }
    });
  }

  /** A zip written as it is read. */
  async function sendZip(request: FastifyRequest, reply: FastifyReply, archive: DownloadableZip): Promise<FastifyReply> {
    const release = takeTransferMemory(request, archive.zip.bufferBytes);
    reply.headers({
      'Content-Type': 'application/zip',
      'Content-Disposition': attachmentDisposition(archive.name),
      'Cache-Control': 'private, no-store',
      'Content-Security-Policy': DOWNLOAD_CSP,
    });
    try {
      return await sendBody(request, reply, (response) => archive.zip.writeTo(response, sendfile.zipSending(response)));
    } finally {
      release();
    }
  }

  /**
   * A stored thumbnail: always WebP the server made, shown inline, cached by the browser
   * (304 by ETag), never sniffed into anything else.
   */
  async function sendThumbnail(
    request: FastifyRequest,
    reply: FastifyReply,
    thumbnail: { key: string; etag: string },
  ): Promise<FastifyReply> {
    const headers = {
      'Content-Type': 'image/webp',
      ETag: thumbnail.etag,
      'Cache-Control': THUMBNAIL_CACHE_CONTROL,
      'Content-Security-Policy': DOWNLOAD_CSP,
      'X-Content-Type-Options': 'nosniff',
    };
    if (clientHas(request, thumbnail.etag)) return reply.code(304).headers(headers).send();
    return streamSource(request, reply, await deps.blobs.open(thumbnail.key), () => reply.headers(headers));
  }

  return {
    sendFile,
    sendZip,
    sendThumbnail,
    send(request: FastifyRequest, reply: FastifyReply, download: Download): Promise<FastifyReply> {
      return download.type === 'file' ? sendFile(request, reply, download.file) : sendZip(request, reply, download.archive);
    },
  };
}

export type DownloadResponses = ReturnType<typeof createDownloadResponses>;

/**
 * Writes the reply's status and headers, then the body straight into the socket: with
 * sendfile where the bytes lie on disk, otherwise at the writer's own pacing (reused
 * buffers, a write at a time); a Fastify stream payload would put a Readable in between. Whatever can fail before
 * the first byte (a missing blob, a missing folder) has already answered with its error.
 * Once headers are out, a failure can only cut the connection, which tells the client
 * the body is incomplete.
 */
async function sendBody(
  request: FastifyRequest,
  reply: FastifyReply,
  writeBody: (response: ServerResponse) => Promise<void>,
): Promise<FastifyReply> {
  reply.hijack();
  const response = reply.raw;
  try {
    // Fastify's header values are typed wider than Node's (numbers for any header), alike at runtime.
    response.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
    if (request.method !== 'HEAD') await writeBody(response);
    response.end();
  } catch (error) {
    const clientLeft = response.destroyed || (error as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE';
    if (clientLeft) request.log.info({ err: error }, 'download stopped by the client');
    else request.log.error({ err: error }, 'download failed after its headers were sent');
    response.destroy();
  }
  return reply;
}
