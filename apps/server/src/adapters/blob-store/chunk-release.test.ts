import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { awaitReaders, releaseChunk } from './chunk-release.ts';
import { createDurableFileWriter } from './durable-file-writer.ts';
import { createHashingStream } from './hashing-stream.ts';

const KiB = 1024;

describe('chunk release', () => {
  it('frees a chunk that owns its memory when its last reader releases it', () => {
    const chunk = Buffer.alloc(64 * KiB, 1);
    awaitReaders(chunk, 2);
    releaseChunk(chunk);
    expect(chunk.length).toBe(64 * KiB);
    releaseChunk(chunk);
    expect([chunk.length, chunk.buffer.byteLength]).toEqual([0, 0]);
  });

  it('leaves views into shared memory, small chunks and unmarked chunks to the collector', () => {
    const shared = Buffer.alloc(128 * KiB);
    const view = shared.subarray(0, 64 * KiB);
    const small = Buffer.alloc(100);
    const unmarked = Buffer.alloc(64 * KiB);
    for (const chunk of [view, small]) {
      awaitReaders(chunk, 1);
      releaseChunk(chunk);
    }
    releaseChunk(unmarked);
    expect([view.length, small.length, unmarked.length, shared.length]).toEqual([64 * KiB, 100, 64 * KiB, 128 * KiB]);
  });

  it('frees each upload chunk once it is both hashed and written, the file and hash intact', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'chunk-release-'));
    try {
      const chunks = Array.from({ length: 200 }, () => randomBytes(64 * KiB));
      const expected = Buffer.concat(chunks);
      const hashing = createHashingStream({ releaseChunks: true });
      const file = await open(path.join(dir, 'blob'), 'w');
      await pipeline(Readable.from(chunks), hashing.stream, createDurableFileWriter(file));
      await file.close();
      expect((await readFile(path.join(dir, 'blob'))).equals(expected)).toBe(true);
      expect(hashing.result().sha256).toBe(createHash('sha256').update(expected).digest('hex'));
      expect(chunks.every((chunk) => chunk.buffer.byteLength === 0)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
