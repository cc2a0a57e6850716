import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { BlobStore, PutResult } from './blob-store.ts';
import { createHashingStream } from './hashing-stream.ts';

/**
 * sha256, CRC32 and size of a stored blob, read once through the same hashing as a put:
 * for bytes that arrived in pieces no single stream saw whole.
 */
export async function hashStoredBlob(blobs: Pick<BlobStore, 'open'>, key: string): Promise<PutResult> {
  const source = await blobs.open(key);
  const hashing = createHashingStream();
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  hashing.stream.pipe(sink);
  try {
    await source.writeTo(hashing.stream);
    hashing.stream.end();
    await finished(sink);
  } finally {
    await source.close();
  }
  return hashing.result();
}
