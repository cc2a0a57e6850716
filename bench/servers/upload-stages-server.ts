/**
 * A node:http server that takes multipart uploads through the first stages of our upload
 * path and no more, so `npm run bench:upload-stages` can tell what each one costs. STAGES:
 * `parse` (busboy, bytes discarded), `hash` (plus our hashing stream) or `store` (the local
 * blob store's put under UPLOAD_DIR, as the server stores an upload: hashing, the durable
 * writer, fsync and rename; the blob is then deleted).
 */
import http from 'node:http';
import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy, { type BusboyHeaders } from '@fastify/busboy';
import { createHashingStream } from '../../apps/server/src/adapters/blob-store/hashing-stream.ts';
import { createLocalBlobStore } from '../../apps/server/src/adapters/blob-store/local-blob-store.ts';
import { newId } from '../../apps/server/src/lib/ids.ts';

const { PORT, STAGES, UPLOAD_DIR } = process.env;
if (!PORT || !UPLOAD_DIR || !['parse', 'hash', 'store'].includes(STAGES ?? ''))
  throw new Error('PORT, UPLOAD_DIR and STAGES=parse|hash|store are required');

const blobs = await createLocalBlobStore({ root: UPLOAD_DIR });
const discard = () => new Writable({ write: (_chunk, _encoding, callback) => callback() });

async function take(file: Readable): Promise<void> {
  if (STAGES === 'parse') return pipeline(file, discard());
  if (STAGES === 'hash') return pipeline(file, createHashingStream().stream, discard());
  const key = newId();
  await blobs.put(key, file, { freeChunks: true });
  await blobs.delete(key);
}

http
  .createServer((request, response) => {
    if (request.method !== 'POST') return void response.end('ready');
    const parser = busboy({ headers: request.headers as BusboyHeaders });
    let taking: Promise<void> = Promise.resolve();
    parser.on('file', (_field: string, file: Readable) => (taking = take(file)));
    parser.on('finish', () =>
      taking.then(
        () => response.end('{}'),
        (error: Error) => {
          response.statusCode = 500;
          response.end(error.message);
        },
      ),
    );
    request.pipe(parser);
  })
  .listen(Number(PORT), '127.0.0.1');
