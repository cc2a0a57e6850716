/**
 * A large file through tus 1.0.0 (/api/uploads): made once, its URL kept by the caller (the
 * journal's transfers table) so that a run killed mid-way asks the server how much arrived
 * (HEAD) and sends only the rest. One PATCH carries everything left; a cut connection is
 * followed by a HEAD and a PATCH from where the server says it stopped.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { ApiClient } from './api-client.ts';
import { isRemoteError, RemoteError } from './remote-error.ts';
import type { UploadFile } from './upload-batch.ts';

const TUS = { 'tus-resumable': '1.0.0' };
/** Attempts in a row that move no byte before the upload is given up for this pass (its URL stays for the next). */
const MAX_ATTEMPTS_WITHOUT_PROGRESS = 4;

/** Bytes read from disk at once for a PATCH body (Node's default is 64 KiB). */
const READ_CHUNK = 1024 * 1024;

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The bytes the server holds of an upload, or undefined when it is gone (expired, finished, refused). */
async function serverOffset(api: ApiClient, url: string): Promise<number | undefined> {
  const response = await api.request({ method: 'HEAD', path: url, headers: TUS, accept: [403, 404, 410] });
  if (!response.ok) return undefined;
  const offset = Number(response.headers.get('upload-offset'));
  return Number.isSafeInteger(offset) ? offset : undefined;
}

async function createUpload(api: ApiClient, file: UploadFile): Promise<string> {
  const metadata = [
    `filename ${base64(file.name)}`,
    ...(file.folderId === null ? [] : [`folderId ${base64(file.folderId)}`]),
    `conflict ${base64(file.conflict)}`,
  ].join(',');
  const response = await api.request({
    method: 'POST',
    path: '/api/uploads',
    headers: { ...TUS, 'upload-length': String(file.size), 'upload-metadata': metadata },
  });
  const location = response.headers.get('location');
  if (location === null) throw new RemoteError(response.status, 'NO_LOCATION', 'The server made the upload but named no URL for it');
  return new URL(location, api.server).pathname;
}

/** SHA-256 of the file's first `end` bytes: what was sent before a resume, read again from disk. */
async function hashPrefix(path: string, end: number) {
  const hash = createHash('sha256');
  if (end > 0) for await (const chunk of createReadStream(path, { start: 0, end: end - 1 })) hash.update(chunk as Buffer);
  return hash;
}

/**
 * Uploads `file` through tus and answers the new (or replaced) file's id. `onUrl` hears the
 * upload's URL as soon as it exists (persist it to resume after a crash); `onBytes` each chunk
 * sent. The bytes sent are hashed on the way: a file changed while it was being sent is
 * refused (CHANGED_WHILE_UPLOADING) rather than taken for the content the scan saw.
 */
export async function tusUpload(
  api: ApiClient,
  file: UploadFile,
  onUrl: (url: string) => void,
  onBytes: (bytes: number) => void,
): Promise<{ id: string }> {
  let url = file.resumeUrl;
  let offset = url === undefined ? undefined : await serverOffset(api, url);
  if (url === undefined || offset === undefined) {
    url = await createUpload(api, file);
    onUrl(url);
    offset = 0;
  }
  for (let stalled = 1; ;) {
    const from = offset;
    let hash = createHash('sha256');
    try {
      const response = await api.request({
        method: 'PATCH',
        path: url,
        headers: {
          ...TUS,
          'upload-offset': String(from),
          'content-type': 'application/offset+octet-stream',
          'content-length': String(file.size - from),
        },
        stream: async () => {
          hash = await hashPrefix(file.localPath, from);
          if (file.size === from) return Readable.from([]);
          const source = createReadStream(file.localPath, { start: from, end: file.size - 1, highWaterMark: READ_CHUNK });
          // Pulled as the socket drains: no more than a chunk or two is read ahead of it.
          return Readable.from(
            (async function* () {
              for await (const chunk of source) {
                hash.update(chunk as Buffer);
                onBytes((chunk as Buffer).length);
                yield chunk as Buffer;
              }
            })(),
            { objectMode: false },
          );
        },
      });
      const id = response.headers.get('x-file-id');
      if (id === null) throw new RemoteError(response.status, 'NO_FILE_ID', 'The server finished the upload but named no file');
      if (hash.digest('hex') !== file.hash) {
        throw new RemoteError(
          0,
          'CHANGED_WHILE_UPLOADING',
          `${file.localPath} changed while it was being uploaded; it is sent again next pass`,
        );
      }
      return { id };
    } catch (error) {
      // A cut connection or an offset the server does not hold (409): ask where it stands and go on.
      const resumable = isRemoteError(error) && (error.status === 0 || error.status === 409 || error.status >= 500);
      const now = resumable ? await serverOffset(api, url) : undefined;
      if (now === undefined) throw error;
      stalled = now > offset ? 1 : stalled + 1;
      if (stalled > MAX_ATTEMPTS_WITHOUT_PROGRESS) throw error;
      offset = now;
    }
  }
}
