import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import * as tus from 'tus-js-client';

export interface TusUploadOptions {
  /** The server's origin (or a proxy's in front of it); the endpoint is /api/uploads there. */
  origin: string;
  token: string;
  filePath: string;
  metadata?: Record<string, string>;
  chunkSize?: number;
  /** tus-js-client's retries; by default quick ones, as a test's network faults are its own. */
  retryDelays?: number[];
  /** Resumes this upload instead of creating one. */
  uploadUrl?: string;
  /** Called once the upload exists, with its URL: a test can stop the server then. */
  onCreated?(uploadUrl: string, upload: tus.Upload): void;
  /** Called after each chunk the server took. */
  onChunk?(upload: tus.Upload): void;
}

export interface TusUploadResult {
  uploadUrl: string;
  /** The X-File-Id of the answer that finished the upload. */
  fileId: string | undefined;
}

/** One upload with the real tus client, from a file on disk (never held whole in memory). */
export function tusUpload(options: TusUploadOptions): Promise<TusUploadResult> {
  return new Promise((resolve, reject) => {
    let fileId: string | undefined;
    let created = false;
    const upload: tus.Upload = new tus.Upload(createReadStream(options.filePath), {
      endpoint: `${options.origin}/api/uploads`,
      uploadUrl: options.uploadUrl ?? null,
      headers: { Authorization: `Bearer ${options.token}` },
      metadata: options.metadata ?? { filename: path.basename(options.filePath) },
      chunkSize: options.chunkSize ?? Number.POSITIVE_INFINITY,
      retryDelays: options.retryDelays ?? [0, 50, 100, 200, 200, 200, 500, 500, 500, 1000, 1000, 1000],
      storeFingerprintForResuming: false,
      onAfterResponse: (_request, response) => {
        fileId = response.getHeader('X-File-Id') ?? fileId;
        if (!created && upload.url) {
          created = true;
          options.onCreated?.(upload.url, upload);
        }
      },
      onChunkComplete: () => options.onChunk?.(upload),
      onSuccess: () => resolve({ uploadUrl: upload.url as string, fileId }),
      onError: reject,
    });
    upload.start();
  });
}

/** A file of random bytes written to a temp dir a chunk at a time, with its sha256 and CRC32. */
export async function randomFile(size: number, name = 'upload.bin'): Promise<{ path: string; sha256: string; crc32: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-tus-'));
  const filePath = path.join(dir, name);
  const hash = createHash('sha256');
  let checksum = 0;
  async function* chunks() {
    for (let written = 0; written < size;) {
      const chunk = randomBytes(Math.min(1024 * 1024, size - written));
      written += chunk.length;
      hash.update(chunk);
      checksum = crc32(chunk, checksum);
      yield chunk;
    }
  }
  await pipeline(Readable.from(chunks()), createWriteStream(filePath));
  return { path: filePath, sha256: hash.digest('hex'), crc32: checksum >>> 0 };
}

/** sha256 of a response body, streamed. */
export async function sha256OfResponse(response: Response): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
  return hash.digest('hex');
}
