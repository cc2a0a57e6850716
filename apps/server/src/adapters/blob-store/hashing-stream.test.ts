import { createHash, randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BlobTooLargeError } from './blob-store.ts';
import { createHashingStream } from './hashing-stream.ts';

function chunksOf(total: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let size = 0; size < total; ) {
    const length = chunks.length % 5 === 0 ? 0 : Math.min(total - size, 1 + Math.floor(Math.random() * 256 * 1024));
    chunks.push(randomBytes(length));
    size += length;
  }
  return chunks;
}

function sink(delayMs: number, received: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      received.push(chunk);
      setTimeout(callback, delayMs);
    },
  });
}

describe('createHashingStream', () => {
  it.each([
    ['a fast consumer', 0],
    ['a slow consumer', 1],
  ])('passes every chunk on unchanged and in order, and hashes them off the main thread, with %s', async (_name, delayMs) => {
    const chunks = chunksOf(20 * 1024 * 1024);
    const whole = Buffer.concat(chunks);
    const hashing = createHashingStream();
    const received: Buffer[] = [];
    await pipeline(Readable.from(chunks), hashing.stream, sink(delayMs, received));
    expect(Buffer.concat(received).equals(whole)).toBe(true);
    expect(hashing.result()).toEqual({
      size: whole.length,
      sha256: createHash('sha256').update(whole).digest('hex'),
      crc32: zlib.crc32(whole),
    });
  });

  it('gives the hashes of nothing for an empty body', async () => {
    const hashing = createHashingStream();
    await pipeline(Readable.from([]), hashing.stream, sink(0, []));
    expect(hashing.result()).toEqual({ size: 0, sha256: createHash('sha256').digest('hex'), crc32: 0 });
  });

  it('fails as soon as the limit is passed, before the chunk that passes it goes on', async () => {
    const hashing = createHashingStream({ maxBytes: 1000 });
    const received: Buffer[] = [];
    await expect(pipeline(Readable.from([randomBytes(600), randomBytes(600)]), hashing.stream, sink(0, received))).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(Buffer.concat(received).length).toBe(600);
    expect(() => hashing.result()).toThrow(/not ended/);
  });
});
