/**
 * A node:http server that takes multipart uploads through the first stages of our upload
 * path and no more, so `npm run bench:upload-stages` can tell what each one costs. STAGES:
 * `parse` (busboy, bytes discarded), `hash` (plus our hashing stream) or `store` (plus the
 * local store's durable writer into UPLOAD_DIR, fsync included; the file is then removed).
 */
import { randomBytes } from 'node:crypto';
import { open, unlink } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy, { type BusboyHeaders } from '@fastify/busboy';
import { createDurableFileWriter } from '../../apps/server/src/adapters/blob-store/durable-file-writer.ts';
import { createHashingStream } from '../../apps/server/src/adapters/blob-store/hashing-stream.ts';

const { PORT, STAGES, UPLOAD_DIR } = process.env;
if (!PORT || !UPLOAD_DIR || !['parse', 'hash', 'store'].includes(STAGES ?? '')) throw new Error('PORT, UPLOAD_DIR and STAGES=parse|hash|store are required');

const discard = () => new Writable({ write: (_chunk, _encoding, callback) => callback() });

async function take(file: Readable): Promise<void> {
  const hashing = STAGES === 'parse' ? [] : [createHashingStream().stream];
  if (STAGES !== 'store') return pipeline([file, ...hashing, discard()]);
  const target = path.join(UPLOAD_DIR as string, randomBytes(8).toString('hex'));
  const handle = await open(target, 'wx');
  try {
    await pipeline([file, ...hashing, createDurableFileWriter(handle)]);
  } finally {
    await handle.close();
    await unlink(target);
  }
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
