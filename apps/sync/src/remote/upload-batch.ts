/**
 * Many small files in one request (POST /api/sync/uploads): a multipart body streamed from the
 * files, each `file` part preceded by its `meta` field. The body's length is known before a
 * byte is read (each file is sent at the size the scan saw), so the server checks it whole
 * (Content-Length, 413, 507) before anything is stored.
 */
import { open } from 'node:fs/promises';
import type { ApiClient } from './api-client.ts';
import { RemoteError } from './remote-error.ts';
import type { RemoteFile } from './remote-ops.ts';

/** What to do when the name is taken in the folder (docs/api.md, Name clashes). */
export type NameConflict = 'replace' | 'keep-both' | 'fail';

/** One local file to put on the server. */
export interface UploadFile {
  /** Absolute path on disk. */
  localPath: string;
  /** The drive folder (null: the caller's root). */
  folderId: string | null;
  name: string;
  conflict: NameConflict;
  /** Lowercase hex SHA-256 of the content the scan read: the server refuses other bytes (HASH_MISMATCH). */
  hash: string;
  size: number;
  /** A tus upload begun by an earlier run (the journal's `transfers.tus_url`): resumed, not begun again. */
  resumeUrl?: string;
}

/** The result of one file: the server's file, or why it was refused. */
export type UploadOutcome = { file: RemoteFile } | { error: RemoteError };

const CRLF = '\r\n';
const encoder = new TextEncoder();

interface Part {
  head: Uint8Array;
  file: UploadFile;
}

/**
 * Each file's framing: its `meta` field, then the `file` part's headers. The filename in the
 * part header is a placeholder: the name travels in `meta` (JSON), so no name needs escaping.
 */
function framing(files: UploadFile[], boundary: string): { parts: Part[]; tail: Uint8Array; length: number } {
  const parts = files.map((file) => {
    const meta = JSON.stringify({ folderId: file.folderId, name: file.name, conflict: file.conflict, contentHash: file.hash });
    const head =
      `--${boundary}${CRLF}Content-Disposition: form-data; name="meta"${CRLF}Content-Type: application/json${CRLF}${CRLF}${meta}${CRLF}` +
      `--${boundary}${CRLF}Content-Disposition: form-data; name="file"; filename="file"${CRLF}Content-Type: application/octet-stream${CRLF}${CRLF}`;
    return { head: encoder.encode(head), file };
  });
  const tail = encoder.encode(`--${boundary}--${CRLF}`);
  const separator = CRLF.length;
  const length = parts.reduce((sum, part) => sum + part.head.length + part.file.size + separator, tail.length);
  return { parts, tail, length };
}

/**
 * Reads exactly `size` bytes of a file: a file grown since the scan is cut, one shrunk or gone
 * is padded with zeros. Either way the bytes no longer match the hash, so the server refuses
 * that one file and keeps nothing of it, and the others in the batch go on.
 */
async function* exactBytes(file: UploadFile, failed: (reason: string) => void): AsyncGenerator<Uint8Array> {
  let left = file.size;
  try {
    const handle = await open(file.localPath, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(Math.max(left, 1), 256 * 1024));
      while (left > 0) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, left));
        if (bytesRead === 0) break;
        left -= bytesRead;
        yield new Uint8Array(buffer.subarray(0, bytesRead));
      }
    } finally {
      await handle.close();
    }
  } catch (error) {
    failed((error as Error).message);
  }
  if (left > 0) {
    failed('the file shrank while it was being sent');
    yield new Uint8Array(left);
  }
}

/**
 * Sends `files` in one POST /api/sync/uploads and answers one outcome per file, in order.
 * `onBytes` hears each chunk as it leaves. A refusal of the whole request (network, 413, 507,
 * 429 past the client's retries) is every file's outcome.
 */
export async function uploadBatch(api: ApiClient, files: UploadFile[], onBytes: (bytes: number) => void): Promise<UploadOutcome[]> {
  const boundary = `cloudvault-${crypto.randomUUID()}`;
  const { parts, tail, length } = framing(files, boundary);
  let localFailures = new Map<number, string>();
  const body = () => {
    localFailures = new Map();
    return ReadableStream.from(
      (async function* () {
        for (const [index, part] of parts.entries()) {
          yield part.head;
          for await (const chunk of exactBytes(part.file, (reason) => localFailures.set(index, reason))) {
            onBytes(chunk.length);
            yield chunk;
          }
          yield encoder.encode(CRLF);
        }
        yield tail;
      })(),
    );
  };
  let results: Array<{ file?: RemoteFile; error?: string; code?: string; status?: number }>;
  try {
    const response = await api.request({
      method: 'POST',
      path: '/api/sync/uploads',
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) },
    });
    ({ results } = (await response.json()) as { results: typeof results });
  } catch (error) {
    const failure = error instanceof RemoteError ? error : new RemoteError(0, 'NETWORK', (error as Error).message);
    return files.map(() => ({ error: failure }));
  }
  return files.map((file, index): UploadOutcome => {
    const local = localFailures.get(index);
    if (local !== undefined) return { error: new RemoteError(0, 'LOCAL_READ', `Could not read ${file.localPath}: ${local}`) };
    const result = results[index];
    if (result?.file !== undefined) return { file: result.file };
    return {
      error: new RemoteError(result?.status ?? 0, result?.code ?? 'NO_RESULT', result?.error ?? 'The server sent no result for this file'),
    };
  });
}
