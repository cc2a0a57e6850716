import { createHash, randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BlobTooLargeError } from './blob-store.ts';
import { createHashingStream, digestHashState, type HashState } from './hashing-stream.ts';

function chunksOf(total: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let size = 0; size < total;) {
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

// The same module object the stream uses, so its calls can be watched.
const native = createRequire(import.meta.url)('@cloudvault/native') as { updateHasher: (...args: unknown[]) => void };

afterEach(() => vi.restoreAllMocks());

describe('createHashingStream', () => {
  it.each([
    ['a consumer that takes chunks at once', 0, 64],
    ['a slow consumer', 1, 8],
  ])(
    'passes every chunk on unchanged and in order, and hashes them on the thread pool in batches, with %s',
    async (_name, delayMs, megabytes) => {
      const updates = vi.spyOn(native, 'updateHasher');
      const chunks = chunksOf(megabytes * 1024 * 1024);
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
      const batches = updates.mock.calls.map(([, batch]) => (batch as Buffer[]).reduce((sum, chunk) => sum + chunk.length, 0));
      expect(batches.reduce((sum, bytes) => sum + bytes, 0)).toBe(whole.length);
      expect(batches.length).toBeLessThan(chunks.length);
      // A batch stops once it holds 1 MiB: never more than that plus one chunk.
      expect(Math.max(...batches)).toBeLessThan(1024 * 1024 + 256 * 1024);
    },
  );

  it('stops hashing when the upload stops midway, and gives no result', async () => {
    const updates = vi.spyOn(native, 'updateHasher');
    const hashing = createHashingStream();
    const source = new Readable({ read() {} });
    const piping = pipeline(source, hashing.stream, sink(0, []));
    for (let index = 0; index < 64; index += 1) source.push(randomBytes(256 * 1024));
    await vi.waitFor(() => expect(updates).toHaveBeenCalled());
    source.destroy(new Error('client left'));
    await expect(piping).rejects.toThrow('client left');
    const callsAtStop = updates.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(updates.mock.calls.length).toBeLessThanOrEqual(callsAtStop + 1);
    expect(() => hashing.result()).toThrow(/not ended/);
  });

  it('gives the hashes of nothing for an empty body', async () => {
    const hashing = createHashingStream();
    await pipeline(Readable.from([]), hashing.stream, sink(0, []));
    expect(hashing.result()).toEqual({ size: 0, sha256: createHash('sha256').digest('hex'), crc32: 0 });
  });

  it('fails as soon as the limit is passed, before the chunk that passes it goes on', async () => {
    const hashing = createHashingStream({ maxBytes: 1000 });
    const received: Buffer[] = [];
    await expect(pipeline(Readable.from([randomBytes(600), randomBytes(600)]), hashing.stream, sink(0, received))).rejects.toBeInstanceOf(
      BlobTooLargeError,
    );
    expect(Buffer.concat(received).length).toBe(600);
    expect(() => hashing.result()).toThrow(/not ended/);
  });
});

describe('hash states of bytes that arrive in pieces', () => {
  it('goes on from an exported state, as if the pieces had been one stream', async () => {
    const pieces = [randomBytes(3 * 1024 * 1024 + 17), randomBytes(1), randomBytes(5 * 1024 * 1024 - 3)];
    let state: HashState | undefined;
    for (const piece of pieces) {
      const hashing = createHashingStream({ from: state as (HashState & { sha256State: Buffer }) | undefined, keepState: true });
      await pipeline(Readable.from([piece]), hashing.stream, sink(0, []));
      state = hashing.state();
    }
    const whole = Buffer.concat(pieces);
    expect(digestHashState(state as HashState & { sha256State: Buffer })).toEqual({
      size: whole.length,
      sha256: createHash('sha256').update(whole).digest('hex'),
      crc32: zlib.crc32(whole),
    });
  });

  it('refuses a state that exportHasher did not make', () => {
    expect(() => digestHashState({ bytes: 1, crc32: 0, sha256State: randomBytes(112).fill(0xff) })).toThrow();
  });
});
