import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BlobNotFoundError,
  type BlobSource,
  type BlobStore,
  BlobTooLargeError,
  InvalidBlobKeyError,
  type UnfinishedUpload,
} from '../src/adapters/blob-store/blob-store.ts';
import { createBlobStore } from '../src/adapters/blob-store/create-blob-store.ts';
import { createLocalBlobStore } from '../src/adapters/blob-store/local-blob-store.ts';
import { createS3BlobStore } from '../src/adapters/blob-store/s3-blob-store.ts';
import { newId } from '../src/lib/ids.ts';
import { loadNativeAddon } from '../src/lib/native-addon.ts';
import { NATIVE_ON } from './helpers/native.ts';
import { startS3FaultProxy } from './helpers/s3-fault-proxy.ts';
import { S3_CREDENTIALS, startS3rver, type TestS3Server } from './helpers/s3rver.ts';

const MiB = 1024 * 1024;
const BIG_FILE_SIZE = 20 * MiB + 12_345; // three 8 MiB parts on S3, the last one short
/** The defaults of docs/configuration.md's S3_CONNECT_TIMEOUT_SECONDS, S3_IDLE_TIMEOUT_SECONDS and S3_MAX_ATTEMPTS. */
const S3_REQUEST_LIMITS = { connectTimeoutMs: 5_000, idleTimeoutMs: 15_000, maxAttempts: 3 };

interface StoreUnderTest {
  store: BlobStore;
  /** Everything the backend holds, temp files and unfinished multipart uploads included. */
  listStored(): Promise<string[]>;
  close(): Promise<void>;
}

/** A source file on disk with its size and hashes computed here, not by the code under test. */
interface SourceFile {
  path: string;
  size: number;
  sha256: string;
  crc32: number;
}

let workDir: string;
let bigFile: SourceFile;

beforeAll(async () => {
  // The stores are made here, not by a test server's start-up: the same choice by hand.
  loadNativeAddon(NATIVE_ON);
  workDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-blob-test-'));
  bigFile = await writeRandomFile(path.join(workDir, 'big.bin'), BIG_FILE_SIZE);
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

describeBlobStore('local', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-blobs-'));
  return {
    store: await createBlobStore({ driver: 'local', root }),
    listStored: () => listFiles(root),
    close: () => rm(root, { recursive: true, force: true }),
  };
});

describeBlobStore('s3 (s3rver)', async () => {
  const s3 = await startS3rver();
  const s3Options = {
    region: 'us-east-1',
    endpoint: s3.endpoint,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    ...S3_REQUEST_LIMITS,
  };
  const client = testClient(s3Options);
  return {
    store: await createBlobStore({ driver: 's3', bucket: s3.bucket, ...s3Options }),
    listStored: async () => [
      ...(await listObjects(client, s3)),
      ...(await s3.pendingMultipartUploads()).map((id) => `multipart upload ${id}`),
    ],
    async close() {
      client.destroy();
      await s3.stop();
    },
  };
});

/** One suite, every driver: the services must not be able to tell them apart. */
function describeBlobStore(name: string, makeStore: () => Promise<StoreUnderTest>) {
  describe(`BlobStore: ${name}`, () => {
    let subject: StoreUnderTest;
    let store: BlobStore;
    beforeAll(async () => {
      subject = await makeStore();
      store = subject.store;
    });
    afterAll(() => subject?.close());

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it.each([
      ['empty', 0],
      ['1 byte', 1],
      ['64 KiB', 64 * 1024],
    ])('round-trips a %s blob with its size, sha256 and crc32', async (_label, size) => {
      const data = randomBytes(size);
      const key = newId();

      const result = await store.put(key, Readable.from([data]));

      expect(result).toEqual({ size, sha256: sha256Of(data), crc32: zlib.crc32(data) >>> 0 });
      expect(digest(await sentBytes(store, key))).toEqual(digest(data));
      expect(await store.exists(key)).toBe(true);
    });

    it('round-trips a 20 MiB file streamed from disk', async () => {
      const key = newId();

      const result = await store.put(key, createReadStream(bigFile.path));

      expect(result).toEqual({ size: bigFile.size, sha256: bigFile.sha256, crc32: bigFile.crc32 });
      expect(await writeIntoSlowDestination(await store.open(key))).toEqual({ size: bigFile.size, sha256: bigFile.sha256 });
    });

    it('hashes a body that arrives in many small chunks like one big buffer', async () => {
      const data = randomBytes(300_000);
      const chunks = Array.from({ length: 300 }, (_, i) => data.subarray(i * 1000, (i + 1) * 1000));

      const result = await store.put(newId(), Readable.from(chunks));

      expect(result).toEqual({ size: data.length, sha256: sha256Of(data), crc32: zlib.crc32(data) >>> 0 });
    });

    it('overwrites a key with a new body', async () => {
      const key = newId();
      await store.put(key, Readable.from([Buffer.from('first version')]));
      await store.put(key, Readable.from([Buffer.from('second')]));

      expect((await sentBytes(store, key)).toString()).toBe('second');
    });

    describe('ranges', () => {
      const data = randomBytes(1000);
      const key = newId();
      beforeAll(async () => {
        await store.put(key, Readable.from([data]));
      });

      it.each([
        ['first byte', 0, 0],
        ['middle', 100, 199],
        ['last byte', 999, 999],
        ['whole blob', 0, 999],
      ])('returns the %s', async (_label, start, end) => {
        const bytes = await readIntoPadded(store, key, { start, end });

        expect(digest(bytes)).toEqual(digest(data.subarray(start, end + 1)));
      });

      it('returns a range across an 8 MiB part boundary of a large blob', async () => {
        const bigKey = newId();
        await store.put(bigKey, createReadStream(bigFile.path));
        const start = 8 * MiB - 1000;
        const end = 8 * MiB + 999;

        const bytes = await readIntoPadded(store, bigKey, { start, end });

        const expected = await readAll(createReadStream(bigFile.path, { start, end }));
        expect(digest(bytes)).toEqual({ size: 2000, sha256: sha256Of(expected) });
      });

      it('rejects malformed ranges', async () => {
        for (const range of [
          { start: 10, end: 5 },
          { start: -1, end: 5 },
          { start: 0.5, end: 5 },
        ]) {
          await expect(store.open(key, range)).rejects.toThrow(RangeError);
          await expect(store.readInto(key, range, Buffer.alloc(10), 0)).rejects.toThrow(RangeError);
        }
      });

      it('rejects a read past the end of the blob', async () => {
        await expect(store.readInto(key, { start: 990, end: 1009 }, Buffer.alloc(20), 0)).rejects.toThrow(/ended 10 bytes before/);
      });
    });

    it('rejects open and readInto of a missing key with BlobNotFoundError', async () => {
      await expect(store.open(newId())).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(store.open(newId(), { start: 0, end: 0 })).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(store.readInto(newId(), { start: 0, end: 0 }, Buffer.alloc(1), 0)).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    describe('open (bytes for sending)', () => {
      it('writes the whole blob into a destination that holds each chunk until it calls back', async () => {
        const key = newId();
        await store.put(key, createReadStream(bigFile.path));
        const source = await store.open(key);

        const received = await writeIntoSlowDestination(source);

        expect(received).toEqual({ size: bigFile.size, sha256: bigFile.sha256 });
      });

      it('writes a range that crosses chunk boundaries, and an empty blob', async () => {
        const key = newId();
        await store.put(key, createReadStream(bigFile.path));
        const start = 2 * MiB - 1000;
        const end = 8 * MiB + 999;
        const emptyKey = newId();
        await store.put(emptyKey, Readable.from([]));

        const ranged = await writeIntoSlowDestination(await store.open(key, { start, end }));
        const empty = await writeIntoSlowDestination(await store.open(emptyKey));

        const expected = await readAll(createReadStream(bigFile.path, { start, end }));
        expect(ranged).toEqual(digest(expected));
        expect(empty).toEqual(digest(Buffer.alloc(0)));
      });

      it('rejects a missing key before anything is written', async () => {
        await expect(store.open(newId())).rejects.toBeInstanceOf(BlobNotFoundError);
        await expect(store.open(newId(), { start: 0, end: 0 })).rejects.toBeInstanceOf(BlobNotFoundError);
      });

      it('rejects, instead of waiting forever, when the destination is destroyed midway', async () => {
        const key = newId();
        await store.put(key, createReadStream(bigFile.path));
        const source = await store.open(key);
        let written = 0;
        const destination = new Writable({
          write(chunk: Buffer, _encoding, callback) {
            written += chunk.length;
            if (written > MiB) destination.destroy();
            else callback();
          },
        });

        await expect(source.writeTo(destination)).rejects.toThrow();
        await source.close();
        await source.close();
        expect(written).toBeLessThan(bigFile.size);
      });
    });

    it('copies a blob inside the store to a new key, leaving the original, and refuses a missing one with BlobNotFoundError', async () => {
      const from = newId();
      const to = newId();
      await store.put(from, createReadStream(bigFile.path));

      await store.copy(from, to);

      expect(await writeIntoSlowDestination(await store.open(to))).toEqual({ size: bigFile.size, sha256: bigFile.sha256 });
      expect(await store.exists(from)).toBe(true);
      const missing = newId();
      await expect(store.copy(missing, newId())).rejects.toBeInstanceOf(BlobNotFoundError);
      expect(await store.exists(missing)).toBe(false);
    });

    it('deletes idempotently, and exists() follows', async () => {
      const key = newId();
      await store.put(key, Readable.from([Buffer.from('to be deleted')]));
      expect(await store.exists(key)).toBe(true);

      await store.delete(key);

      expect(await store.exists(key)).toBe(false);
      await expect(store.open(key)).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(store.delete(key)).resolves.toBeUndefined();
      await expect(store.delete(newId())).resolves.toBeUndefined();
    });

    it('accepts a body of exactly maxBytes', async () => {
      const data = randomBytes(1000);

      const result = await store.put(newId(), Readable.from([data]), { maxBytes: 1000 });

      expect(result.size).toBe(1000);
    });

    it.each([
      ['a small body', () => Readable.from([randomBytes(600), randomBytes(600)]), 1000],
      // On S3 the first 8 MiB part is uploaded before the limit is hit: the multipart upload must go too.
      ['a 20 MiB body (after a whole part)', () => createReadStream(bigFile.path), 12 * MiB],
    ])('rejects %s over maxBytes with BlobTooLargeError and stores nothing', async (_label, makeBody, maxBytes) => {
      const key = newId();
      const before = await subject.listStored();
      const body = makeBody();

      const error = await store.put(key, body, { maxBytes }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(BlobTooLargeError);
      expect((error as BlobTooLargeError).maxBytes).toBe(maxBytes);
      expect(await store.exists(key)).toBe(false);
      await expect(store.open(key)).rejects.toBeInstanceOf(BlobNotFoundError);
      expect(await subject.listStored()).toEqual(before);
      expect(body.destroyed).toBe(true);
    });

    it.each([
      ['after a few bytes', 5000],
      // Well past 8 MiB: the few chunks still in the streams' buffers when the error overtakes
      // them must not keep the first part from being cut and uploaded.
      ['after a whole 8 MiB part', 16 * MiB],
    ])('rejects with the body’s own error when it fails %s, and stores nothing', async (_label, bytesBeforeError) => {
      const key = newId();
      const before = await subject.listStored();
      const clientGone = new Error('client aborted the upload');

      const error = await store.put(key, failingBody(bytesBeforeError, clientGone)).catch((e: unknown) => e);

      expect(error).toBe(clientGone);
      expect(await store.exists(key)).toBe(false);
      expect(await subject.listStored()).toEqual(before);
    });

    it('keeps the previous blob when an overwrite fails', async () => {
      const key = newId();
      await store.put(key, Readable.from([Buffer.from('good')]));

      await expect(store.put(key, failingBody(100, new Error('gone')))).rejects.toThrow('gone');

      expect((await sentBytes(store, key)).toString()).toBe('good');
    });

    it.each(['../x', 'a/b', '', '../../../../etc/passwd', 'short', 'a'.repeat(129), 'abcd\\efgh', 'abcdefgh\n'])(
      'refuses the invalid key %j in every method',
      async (key) => {
        await expect(store.put(key, Readable.from([Buffer.from('x')]))).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(store.open(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(store.readInto(key, { start: 0, end: 0 }, Buffer.alloc(1), 0)).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(store.exists(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(store.delete(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      },
    );

    it('stores concurrent puts of different keys without mixing them up', async () => {
      const blobs = Array.from({ length: 8 }, (_, i) => ({ key: newId(), data: randomBytes(100_000 + i * 37_000) }));

      const results = await Promise.all(blobs.map(({ key, data }) => store.put(key, Readable.from(chunked(data, 16_384)))));

      expect(results.map((r) => r.sha256)).toEqual(blobs.map(({ data }) => sha256Of(data)));
      for (const { key, data } of blobs) expect(digest(await sentBytes(store, key))).toEqual(digest(data));
    });

    it('lists blobs a page at a time in key order, and finds and discards an unfinished upload by its key', async () => {
      const keys = Array.from({ length: 5 }, () => newId());
      for (const key of keys) await store.put(key, Readable.from([Buffer.from(key)]));
      const pages: string[][] = [];
      for await (const page of store.list(2)) pages.push(page.map((blob) => blob.key));
      const listed = pages.flat();
      expect(pages.every((page) => page.length <= 2)).toBe(true);
      expect(listed).toEqual([...listed].sort());
      expect(listed).toEqual(expect.arrayContaining(keys));

      // More than one S3 part, so the multipart upload exists before the body ends.
      const key = newId();
      const body = new PassThrough();
      body.write(randomBytes(9 * MiB));
      const putting = store.put(key, body).catch((error: unknown) => error);
      await expect.poll(async () => (await collect(store.listUnfinished(key))).length, { timeout: 20_000 }).toBe(1);
      const [upload] = await collect(store.listUnfinished(key));
      expect(upload?.key).toBe(key);
      await store.discardUnfinished(upload as UnfinishedUpload);
      expect(await collect(store.listUnfinished(key))).toEqual([]);
      body.destroy(new Error('the client went away'));
      await putting;
      expect(await store.exists(key)).toBe(false);
    });
  });
}

async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages) all.push(...page);
  return all;
}

describe('local BlobStore specifics', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-blobs-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('shards files by the first four characters of the key', async () => {
    const store = await createLocalBlobStore({ root });
    const key = 'AbCd' + newId();

    await store.put(key, Readable.from([Buffer.from('sharded')]));

    expect(await readFile(path.join(root, 'Ab', 'Cd', key), 'utf8')).toBe('sharded');
  });

  it('leaves .tmp alone at start-up, where another node sharing the root may be uploading', async () => {
    const first = await createLocalBlobStore({ root });
    const key = newId();
    await first.put(key, Readable.from([Buffer.from('kept')]));
    await writeFile(path.join(root, '.tmp', `${newId()}.0123`), randomBytes(1000));

    const second = await createLocalBlobStore({ root });

    expect(await readdir(path.join(root, '.tmp'))).toHaveLength(1);
    expect((await sentBytes(second, key)).toString()).toBe('kept');
    await expect(second.ping()).resolves.toBeUndefined();
  });
});

describe('s3 BlobStore specifics', () => {
  let s3: TestS3Server;
  beforeAll(async () => {
    s3 = await startS3rver();
  });
  afterAll(() => s3?.stop());

  it('stores blobs under the blobs/ prefix', async () => {
    const options = {
      region: 'us-east-1',
      endpoint: s3.endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      ...S3_REQUEST_LIMITS,
    };
    const store = await createBlobStore({ driver: 's3', bucket: s3.bucket, ...options });
    const key = newId();
    await store.put(key, Readable.from([Buffer.from('prefixed')]));

    const client = testClient(options);
    try {
      expect(await listObjects(client, s3)).toEqual([`blobs/${key}`]);
    } finally {
      client.destroy();
    }
  });

  describe('copies past the single-copy limit (lowered to 1 MiB, 256 KiB parts)', () => {
    const LIMITS = { multipartCopy: { above: MiB, partBytes: 256 * 1024 } };
    /** The store behind a proxy that counts, and can refuse, the UploadPartCopy requests (PUTs of a part). */
    async function storeBehindProxy() {
      const proxy = await startS3FaultProxy(s3.endpoint);
      const store = createS3BlobStore({
        bucket: s3.bucket,
        region: 'us-east-1',
        endpoint: proxy.endpoint,
        ...S3_CREDENTIALS,
        forcePathStyle: true,
        ...S3_REQUEST_LIMITS,
        ...LIMITS,
      });
      let partCopies = 0;
      const isPartCopy = (method: string, url: string) => {
        const partCopy = method === 'PUT' && url.includes('partNumber=');
        if (partCopy) partCopies += 1;
        return partCopy;
      };
      proxy.setFault('none', isPartCopy);
      return { store, proxy, isPartCopy, partCopies: () => partCopies };
    }

    it('copies in UploadPartCopy parts, byte for byte, and leaves no upload behind', async () => {
      const { store, proxy, partCopies } = await storeBehindProxy();
      try {
        const bytes = randomBytes(MiB + 1000);
        const from = newId();
        const to = newId();
        await store.put(from, Readable.from([bytes]));
        await store.copy(from, to);

        expect(partCopies()).toBe(5);
        expect(
          createHash('sha256')
            .update(await sentBytes(store, to))
            .digest('hex'),
        ).toBe(createHash('sha256').update(bytes).digest('hex'));
        expect(await s3.pendingMultipartUploads()).toEqual([]);
        // At the limit itself, one CopyObject.
        const atLimit = newId();
        await store.put(atLimit, Readable.from([bytes.subarray(0, MiB)]));
        await store.copy(atLimit, newId());
        expect(partCopies()).toBe(5);
      } finally {
        await proxy.close();
      }
    });

    it('aborts the multipart upload when a part is refused: no object and no parts are left', async () => {
      const { store, proxy, isPartCopy } = await storeBehindProxy();
      try {
        const from = newId();
        const to = newId();
        await store.put(from, Readable.from([randomBytes(MiB + 1)]));
        // A refusal: a store found unavailable fails fast for a few seconds, the abort included, and leaves the upload to the sweeper.
        proxy.setFault('refused', isPartCopy);

        await expect(store.copy(from, to)).rejects.toThrow();
        expect(proxy.faultedRequests()).toBeGreaterThan(0);
        expect(await store.exists(to)).toBe(false);
        expect(await s3.pendingMultipartUploads()).toEqual([]);
      } finally {
        await proxy.close();
      }
    });

    it('answers BlobNotFoundError for a missing source, starting no upload', async () => {
      const { store, proxy } = await storeBehindProxy();
      try {
        await expect(store.copy(newId(), newId())).rejects.toBeInstanceOf(BlobNotFoundError);
        expect(await s3.pendingMultipartUploads()).toEqual([]);
      } finally {
        await proxy.close();
      }
    });
  });

  it('fails ping when the bucket does not exist', async () => {
    const store = await createBlobStore({
      driver: 's3',
      bucket: 'no-such-bucket',
      region: 'us-east-1',
      endpoint: s3.endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      ...S3_REQUEST_LIMITS,
    });

    await expect(store.ping()).rejects.toThrow();
  });
});

/** Random bytes written to disk in 1 MiB steps, hashed here as they are generated. */
async function writeRandomFile(filePath: string, size: number): Promise<SourceFile> {
  const hash = createHash('sha256');
  let crc32 = 0;
  let remaining = size;
  await pipeline(
    Readable.from(
      (function* () {
        while (remaining > 0) {
          const chunk = randomBytes(Math.min(MiB, remaining));
          remaining -= chunk.length;
          hash.update(chunk);
          crc32 = zlib.crc32(chunk, crc32);
          yield chunk;
        }
      })(),
    ),
    createWriteStream(filePath),
  );
  return { path: filePath, size, sha256: hash.digest('hex'), crc32: crc32 >>> 0 };
}

/** Pushes `bytes` bytes, then fails the way a request does when the client goes away. */
function failingBody(bytes: number, error: Error): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) {
        this.destroy(error);
        return;
      }
      const chunk = randomBytes(Math.min(MiB, bytes - sent));
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

function* chunked(data: Buffer, size: number) {
  for (let offset = 0; offset < data.length; offset += size) yield data.subarray(offset, offset + size);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The blob's bytes as a download sends them. */
async function sentBytes(store: BlobStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  const source = await store.open(key);
  try {
    await source.writeTo(destination);
  } finally {
    await source.close();
  }
  return Buffer.concat(chunks);
}

/** A range read into the middle of a larger buffer, checking that nothing around it was touched. */
async function readIntoPadded(store: BlobStore, key: string, range: { start: number; end: number }): Promise<Buffer> {
  const length = range.end - range.start + 1;
  const target = Buffer.alloc(length + 6, 0xee);
  await store.readInto(key, range, target, 3);
  expect(target.subarray(0, 3).equals(Buffer.alloc(3, 0xee))).toBe(true);
  expect(target.subarray(3 + length).equals(Buffer.alloc(3, 0xee))).toBe(true);
  return target.subarray(3, 3 + length);
}

/** Size and sha256: compared instead of the bytes, as deep-equality of big buffers takes seconds. */
/**
 * Writes the source into a destination that hashes each chunk only after a pause and then
 * calls back: a sender that reused a buffer before its write callback would corrupt the hash.
 */
async function writeIntoSlowDestination(source: BlobSource): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  const destination = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      setTimeout(() => {
        hash.update(chunk);
        size += chunk.length;
        callback();
      }, 1);
    },
  });
  try {
    await source.writeTo(destination);
  } finally {
    await source.close();
  }
  destination.end();
  await finished(destination);
  return { size, sha256: hash.digest('hex') };
}

function digest(data: Buffer): { size: number; sha256: string } {
  return { size: data.length, sha256: sha256Of(data) };
}

function sha256Of(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

async function listObjects(client: S3Client, s3: TestS3Server): Promise<string[]> {
  const keys: string[] = [];
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken }));
    for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    ContinuationToken = page.NextContinuationToken;
  } while (ContinuationToken);
  return keys.sort();
}

/** A client of its own, to look into the bucket behind the store's back. */
function testClient(options: { region: string; endpoint: string; forcePathStyle: boolean }): S3Client {
  return new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
