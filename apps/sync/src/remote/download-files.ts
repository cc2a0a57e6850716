/**
 * Server files to temp files on disk, checked against the hash the plan expects before the
 * engine renames them into place. Small files come many to a request (POST /api/sync/downloads,
 * frames read as they stream); large ones alone (GET /api/files/:id/download) with a Range from
 * what the temp file already holds, so a cut or a crash costs only the rest.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ApiClient } from './api-client.ts';
import { errorFromResponse, RemoteError } from './remote-error.ts';

/** One server file to bring to `tmpPath`. */
export interface DownloadFile {
  remoteId: string;
  size: number;
  /** The content the plan expects (lowercase hex SHA-256): anything else is not kept. */
  hash: string;
  /** Absolute path of the temp file (in LOCAL_DIR/.cloudvault/tmp/, on the same disk as its place). */
  tmpPath: string;
}

/** The result of one file: in place at its tmpPath with the expected content, or why not. */
export type DownloadOutcome = { ok: true } | { error: RemoteError };

/** Where a file's bytes go while they arrive: hashed and counted on the way. */
class TempFile {
  readonly handle: FileHandle;
  readonly hash: Hash;
  written: number;

  private constructor(handle: FileHandle, hash: Hash, written: number) {
    this.handle = handle;
    this.hash = hash;
    this.written = written;
  }

  /** A temp file from scratch. */
  static async fresh(path: string): Promise<TempFile> {
    await mkdir(dirname(path), { recursive: true });
    return new TempFile(await open(path, 'w'), createHash('sha256'), 0);
  }

  /** A temp file that keeps what an earlier attempt wrote (its bytes hashed again from disk). */
  static async resumed(path: string): Promise<TempFile> {
    await mkdir(dirname(path), { recursive: true });
    const hash = createHash('sha256');
    const size = await stat(path).then(
      (stats) => stats.size,
      () => 0,
    );
    if (size > 0) for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    return new TempFile(await open(path, size > 0 ? 'a' : 'w'), hash, size);
  }

  async write(chunk: Uint8Array): Promise<void> {
    this.hash.update(chunk);
    this.written += chunk.length;
    let offset = 0;
    while (offset < chunk.length) offset += (await this.handle.write(chunk, offset)).bytesWritten;
  }

  /** Flushes to disk and closes; answers whether the content is `expected` (size and hash). */
  async finish(file: DownloadFile): Promise<DownloadOutcome> {
    await this.handle.sync();
    await this.handle.close();
    const digest = this.hash.digest('hex');
    if (this.written === file.size && digest === file.hash) return { ok: true };
    await rm(file.tmpPath, { force: true });
    return {
      error: new RemoteError(
        0,
        'CHANGED_ON_SERVER',
        `The server's file ${file.remoteId} is not the content planned (${this.written} bytes, sha256 ${digest.slice(0, 12)}…); it is fetched again next pass`,
      ),
    };
  }
}

/** A frame header of POST /api/sync/downloads. */
interface FrameHeader {
  id?: string;
  size?: number;
  contentHash?: string;
  error?: string;
  code?: string;
  end?: boolean;
}

/**
 * Files of a batch flushed to disk at once. Each flush waits on the disk (~5-10 ms here); the
 * disk commits concurrent ones together, so the stream goes on to the next files while the
 * ones before are flushed, rather than waiting on each in turn.
 */
const FLUSHES_AT_ONCE = 32;

/**
 * Downloads `files` in one POST /api/sync/downloads, calling `onDone` for each file as soon as
 * its bytes are in, flushed to disk and checked (files finish out of order: `index` says
 * which). Answers once every file it reached is done; a stream cut part-way leaves the rest
 * without an outcome (the caller asks again for those).
 */
export async function downloadBatch(
  api: ApiClient,
  files: DownloadFile[],
  onBytes: (bytes: number) => void,
  onDone: (index: number, outcome: DownloadOutcome) => void,
): Promise<void> {
  const response = await api.request({
    method: 'POST',
    path: '/api/sync/downloads',
    json: { ids: files.map((file) => file.remoteId) },
    idempotent: true,
  });
  if (response.body === null) throw new RemoteError(0, 'NETWORK', 'The download had no body');
  const decoder = new TextDecoder();
  let index = 0;
  let header = '';
  let target: { file: DownloadFile; temp: TempFile; left: number } | undefined;
  const flushing = new Set<Promise<void>>();
  // A file's last byte is written: it is flushed and checked while the stream goes on.
  const finishTarget = async () => {
    if (target === undefined) return;
    const done = { ...target, index };
    target = undefined;
    index += 1;
    while (flushing.size >= FLUSHES_AT_ONCE) await Promise.race(flushing);
    const flushed = done.temp.finish(done.file).then(
      (outcome) => onDone(done.index, outcome),
      (error: unknown) => onDone(done.index, { error: new RemoteError(0, 'LOCAL_WRITE', (error as Error).message) }),
    );
    const settled = flushed.finally(() => flushing.delete(settled));
    flushing.add(settled);
  };
  const startFrame = async (line: string): Promise<boolean> => {
    const frame = JSON.parse(line) as FrameHeader;
    if (frame.end === true) return true;
    const file = files[index];
    if (file === undefined || frame.id !== file.remoteId)
      throw new RemoteError(0, 'BAD_FRAME', 'The download stream named files out of order');
    if (frame.error !== undefined) {
      onDone(index, { error: new RemoteError(404, frame.code ?? 'NOT_FOUND', frame.error) });
      index += 1;
      return false;
    }
    target = { file, temp: await TempFile.fresh(file.tmpPath), left: frame.size ?? 0 };
    if (target.left === 0) await finishTarget();
    return false;
  };
  try {
    for await (const received of response.body) {
      let chunk: Uint8Array = received;
      while (chunk.length > 0) {
        if (target !== undefined) {
          const take = chunk.subarray(0, Math.min(target.left, chunk.length));
          chunk = chunk.subarray(take.length);
          await target.temp.write(take);
          onBytes(take.length);
          target.left -= take.length;
          if (target.left === 0) await finishTarget();
          continue;
        }
        const newline = chunk.indexOf(0x0a);
        if (newline < 0) {
          header += decoder.decode(chunk, { stream: true });
          break;
        }
        header += decoder.decode(chunk.subarray(0, newline));
        chunk = chunk.subarray(newline + 1);
        const line = header;
        header = '';
        if (await startFrame(line)) return;
      }
    }
    throw new RemoteError(0, 'NETWORK', 'The download stream broke off');
  } finally {
    await target?.temp.handle.close().catch(() => undefined);
    // Every file whose bytes all came is reported before the batch answers, however it ended.
    await Promise.all(flushing);
  }
}

/** One range request of a large file: the answer's body and whether it starts at `from` (206) or at 0 (200). */
async function rangeRequest(
  api: ApiClient,
  file: DownloadFile,
  from: number,
): Promise<{ body: ReadableStream<Uint8Array>; resumed: boolean }> {
  const range: Record<string, string> = from > 0 ? { range: `bytes=${from}-` } : {};
  let response = await api.request({
    path: `/api/files/${encodeURIComponent(file.remoteId)}/download`,
    headers: range,
    redirect: 'manual',
  });
  const location = response.headers.get('location');
  if (response.status >= 300 && response.status < 400 && location !== null) {
    // The object store itself (presigned URL): its own signature, never our bearer.
    response = await fetch(new URL(location, api.server), { headers: range });
    if (!response.ok) throw await errorFromResponse(response);
  }
  if (response.body === null) throw new RemoteError(0, 'NETWORK', 'The download had no body');
  return { body: response.body, resumed: response.status === 206 };
}

/** Attempts in a row that bring no byte before a large download is given up for this pass (the temp file stays for the next). */
const MAX_ATTEMPTS_WITHOUT_PROGRESS = 4;

/**
 * Downloads one large file, resuming from what `tmpPath` already holds (a Range request; a
 * server answering whole starts again). A cut connection resumes at once, a few times.
 */
export async function downloadLarge(api: ApiClient, file: DownloadFile, onBytes: (bytes: number) => void): Promise<DownloadOutcome> {
  for (let stalled = 1; ;) {
    let temp = await TempFile.resumed(file.tmpPath);
    const before = temp.written;
    try {
      if (temp.written > file.size) {
        await temp.handle.close();
        temp = await TempFile.fresh(file.tmpPath);
      }
      if (temp.written < file.size) {
        const { body, resumed } = await rangeRequest(api, file, temp.written);
        if (!resumed && temp.written > 0) {
          await temp.handle.close();
          temp = await TempFile.fresh(file.tmpPath);
        }
        for await (const chunk of body) {
          await temp.write(chunk);
          onBytes(chunk.length);
        }
      }
      return await temp.finish(file);
    } catch (error) {
      await temp.handle.close().catch(() => undefined);
      stalled = temp.written > before ? 1 : stalled + 1;
      const retry =
        stalled <= MAX_ATTEMPTS_WITHOUT_PROGRESS && !(error instanceof RemoteError && error.status >= 400 && error.status < 500);
      if (!retry) return { error: error instanceof RemoteError ? error : new RemoteError(0, 'NETWORK', (error as Error).message) };
    }
  }
}
