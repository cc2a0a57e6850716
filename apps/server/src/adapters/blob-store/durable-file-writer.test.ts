import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NativeAddon } from '../../lib/native-addon.ts';
import { createDurableFileWriter } from './durable-file-writer.ts';

// The same module object the writer uses, so its calls can be watched.
const native = createRequire(import.meta.url)('@cloudvault/native') as NativeAddon;
const MiB = 1024 * 1024;

/** Chunks of uneven sizes, as a socket hands them out. */
function chunksOf(total: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let size = 0; size < total;) {
    const length = Math.min(total - size, 1 + Math.floor(Math.random() * 300 * 1024));
    chunks.push(randomBytes(length));
    size += length;
  }
  return chunks;
}

/** Whether the file system under `dir` takes O_DIRECT (tmpfs before Linux 6.6 does not). */
function takesDirectIo(dir: string): boolean {
  try {
    closeSync(openSync(path.join(dir, 'probe'), constants.O_CREAT | constants.O_WRONLY | constants.O_DIRECT));
    return true;
  } catch {
    return false;
  }
}

/** The file status flags /proc shows for one of our descriptors. */
const statusFlags = (fd: number) => Number.parseInt(/flags:\s+(\d+)/.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1] ?? '', 8);
const openDescriptors = () => readdirSync('/proc/self/fd').length;

let dir: string;
beforeEach(async () => {
  // The system's temp folder, as DATA_DIR would be: on a disk, not the memory-backed /dev/shm.
  dir = await mkdtemp(path.join(os.tmpdir(), 'durable-writer-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

describe.each([
  ['the native addon', native],
  ['the portable path', {}],
])('createDurableFileWriter through %s', (_name, addon) => {
  // Around the 4 KiB alignment and the addon's 4 MiB buffer, where off-by-ones would hide.
  it.each([0, 1, 4095, 4096, 4097, 4 * MiB - 1, 4 * MiB, 4 * MiB + 1, 9 * MiB + 12345])(
    'stores %i bytes exactly as they came',
    async (size) => {
      const chunks = chunksOf(size);
      const filePath = path.join(dir, 'blob');
      const file = await open(filePath, 'wx');
      await pipeline(Readable.from(chunks), createDurableFileWriter(file, addon));
      await file.close();
      expect((await readFile(filePath)).equals(Buffer.concat(chunks))).toBe(true);
    },
  );

  // A resumed upload's next bytes: at a buffer boundary, and anywhere a cut-off PATCH left it.
  it.each([
    [64 * MiB, 9 * MiB + 1],
    [4 * MiB, 4 * MiB],
    [1234567, 9 * MiB + 12345],
    [4095, 4097],
  ])('goes on from offset %i with %i more bytes, leaving what is before it', async (offset, size) => {
    const filePath = path.join(dir, 'blob');
    const before = randomBytes(offset);
    const file = await open(filePath, 'wx');
    await file.write(before, 0, offset, 0);
    const chunks = chunksOf(size);
    const writer = createDurableFileWriter(file, addon, offset);
    await pipeline(Readable.from(chunks), writer);
    await file.close();
    expect(writer.bytesWritten).toBe(size);
    expect((await readFile(filePath)).equals(Buffer.concat([before, ...chunks]))).toBe(true);
  });
});

describe('createDurableFileWriter through the native addon', () => {
  it('writes a large file past the page cache once it passes 4 MiB where the file system allows, and its last bytes through it', async () => {
    const direct = takesDirectIo(dir) ? constants.O_DIRECT : 0;
    const writes = vi.spyOn(native, 'writeFile');
    const file = await open(path.join(dir, 'blob'), 'wx');
    const source = new Readable({ read() {} });
    const writing = pipeline(source, createDurableFileWriter(file));
    source.push(randomBytes(3 * MiB));
    await vi.waitFor(() => expect(writes).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statusFlags(file.fd) & constants.O_DIRECT).toBe(0);
    source.push(randomBytes(2 * MiB));
    // The writer's descriptor is a dup of ours: both share the status flags.
    await vi.waitFor(() => expect(statusFlags(file.fd) & constants.O_DIRECT).toBe(direct));
    await vi.waitFor(() => expect(writes).toHaveBeenCalledTimes(2));
    source.push(randomBytes(123));
    source.push(null);
    await writing;
    expect(statusFlags(file.fd) & constants.O_DIRECT).toBe(0);
    await file.close();
  });

  it('closes its descriptor when the upload stops midway, even with a write in flight', async () => {
    const before = openDescriptors();
    const writes = vi.spyOn(native, 'writeFile');
    const file = await open(path.join(dir, 'blob'), 'wx');
    const source = new Readable({ read() {} });
    const writing = pipeline(source, createDurableFileWriter(file));
    for (let index = 0; index < 40; index += 1) source.push(randomBytes(256 * 1024));
    await vi.waitFor(() => expect(writes).toHaveBeenCalled());
    source.destroy(new Error('client left'));
    await expect(writing).rejects.toThrow('client left');
    await file.close();
    await vi.waitFor(() => expect(openDescriptors()).toBe(before));
  });

  it('fails with the system error when the file cannot be written', async () => {
    const filePath = path.join(dir, 'blob');
    await (await open(filePath, 'wx')).close();
    const readOnly = await open(filePath, 'r');
    const writing = pipeline(Readable.from([randomBytes(5 * MiB)]), createDurableFileWriter(readOnly));
    await expect(writing).rejects.toMatchObject({ code: 'EBADF', message: expect.stringMatching(/^write failed: /) });
    await readOnly.close();
  });
});
