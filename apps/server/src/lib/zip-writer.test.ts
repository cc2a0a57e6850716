import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readZip } from '../../test/helpers/read-zip.ts';
import { createZipArchive, MAX_ENTRY_NAME_BYTES, pathTooLongForZip, type ZipEntry } from './zip-writer.ts';

const when = new Date('2026-03-04T05:06:08Z');
const MiB = 1024 * 1024;

/** A file read as a blob store reads one: exactly the part asked for, or a rejection past its end. */
function fileEntry(entryPath: string, bytes: Buffer, onRead?: (path: string) => void): ZipEntry {
  return {
    path: entryPath,
    modifiedAt: when,
    file: {
      size: bytes.length,
      crc32: zlib.crc32(bytes),
      read: async (target, targetOffset, position, length) => {
        onRead?.(entryPath);
        await new Promise((resolve) => setImmediate(resolve));
        if (position + length > bytes.length)
          throw new Error(`The blob ended ${position + length - bytes.length} bytes before the range did`);
        bytes.copy(target, targetOffset, position, position + length);
      },
    },
  };
}

/**
 * Collects what the archive writes, taking each chunk only after a pause and then calling
 * back: a writer that reused a buffer before its write callback would corrupt the archive.
 */
function slowCollector(onFirstWrite?: () => void) {
  const chunks: Buffer[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (chunks.length === 0) onFirstWrite?.();
      setTimeout(() => {
        chunks.push(Buffer.from(chunk));
        callback();
      }, 1);
    },
  });
  return { destination, bytes: () => Buffer.concat(chunks) };
}

async function writeZip(entries: ZipEntry[], compress: boolean): Promise<Buffer> {
  const collector = slowCollector();
  await createZipArchive(entries, { compress }).writeTo(collector.destination);
  await new Promise<void>((resolve) => collector.destination.end(resolve));
  return collector.bytes();
}

describe.each([
  ['stored', false],
  ['deflated', true],
])('createZipArchive (%s)', (_mode, compress) => {
  it('round-trips files across output batches, unicode names and empty directories byte for byte', async () => {
    // A 16 KiB random block repeated: deflate's 32 KiB window finds the repeats.
    const block = randomBytes(16 * 1024);
    const big = Buffer.concat([...Array<Buffer>(9 * 64).fill(block), randomBytes(17)]);
    const text = Buffer.from('hello '.repeat(1000));
    const many = Array.from({ length: 120 }, (_, i) => randomBytes(1000 + i * 977));
    const entries: ZipEntry[] = [
      { path: 'empty/', modifiedAt: when },
      { path: 'docs/', modifiedAt: when },
      fileEntry('docs/Ünïcödé 日本 "q".txt', text),
      fileEntry('big.bin', big),
      fileEntry('zero.txt', Buffer.alloc(0)),
      ...many.map((bytes, i) => fileEntry(`many/${i}.bin`, bytes)),
    ];
    const archive = await writeZip(entries, compress);
    const read = await readZip(archive);

    expect([...read.keys()].slice(0, 5)).toEqual(['empty/', 'docs/', 'docs/Ünïcödé 日本 "q".txt', 'big.bin', 'zero.txt']);
    expect(read.get('empty/')).toBe('dir');
    expect((read.get('docs/Ünïcödé 日本 "q".txt') as Buffer).equals(text)).toBe(true);
    expect((read.get('big.bin') as Buffer).equals(big)).toBe(true);
    expect((read.get('zero.txt') as Buffer).length).toBe(0);
    many.forEach((bytes, i) => expect((read.get(`many/${i}.bin`) as Buffer).equals(bytes)).toBe(true));
    const content = big.length + text.length + many.reduce((sum, bytes) => sum + bytes.length, 0);
    if (compress) expect(archive.length).toBeLessThan(content);
    else expect(archive.length).toBeGreaterThan(content);
  });

  it('fails the archive when a blob is shorter than its recorded size', async () => {
    const entry = fileEntry('short.bin', randomBytes(100));
    const lying: ZipEntry = { ...entry, file: { ...entry.file!, size: 150 } };
    await expect(writeZip([lying], compress)).rejects.toThrow(/ended 50 bytes before/);
  });

  it('stops, instead of waiting forever, when the destination is destroyed midway', async () => {
    const entries = Array.from({ length: 40 }, (_, i) => fileEntry(`f${i}.bin`, randomBytes(MiB)));
    let written = 0;
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written += chunk.length;
        if (written > 5 * MiB) destination.destroy();
        else callback();
      },
    });
    await expect(createZipArchive(entries, { compress }).writeTo(destination)).rejects.toThrow();
    expect(written).toBeLessThan(40 * MiB);
  });
});

describe('zip64 and streaming', () => {
  it('writes the zip64 end records when there are more than 65,535 entries', async () => {
    const entries = Array.from({ length: 70_000 }, (_, i): ZipEntry => ({ path: `d${i}/`, modifiedAt: when }));
    const archive = await writeZip(entries, false);
    expect(archive.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    const read = await readZip(archive);
    expect(read.size).toBe(70_000);
    expect(read.get('d69999/')).toBe('dir');
  }, 60_000);

  it('sends the first bytes before later files are read, reading at most three 4 MiB batches ahead', async () => {
    const read = new Set<string>();
    // 15 MiB in all: the first 4 MiB batch holds about 16 files.
    const entries = Array.from({ length: 60 }, (_, i) => fileEntry(`f${i}.bin`, randomBytes(256 * 1024), (path) => read.add(path)));
    let readBeforeFirstWrite = 0;
    const collector = slowCollector(() => (readBeforeFirstWrite = read.size));

    await createZipArchive(entries, { compress: false }).writeTo(collector.destination);

    expect(readBeforeFirstWrite).toBeGreaterThanOrEqual(16);
    expect(readBeforeFirstWrite).toBeLessThanOrEqual(3 * 16 + 1);
    expect(read.size).toBe(60);
  });
});

describe('entry names', () => {
  it('takes paths of up to 65,535 bytes in UTF-8 and refuses longer ones before writing anything', async () => {
    const longest = `${'é'.repeat((MAX_ENTRY_NAME_BYTES - 1) / 2)}/`;
    expect(Buffer.byteLength(longest)).toBe(MAX_ENTRY_NAME_BYTES);
    const fits = [{ path: longest, modifiedAt: when }];
    expect(pathTooLongForZip(fits)).toBeUndefined();
    expect([...(await readZip(await writeZip(fits, false))).keys()]).toEqual([longest]);

    const tooLong = [
      { path: 'a.txt', modifiedAt: when },
      { path: `é${longest}`, modifiedAt: when },
    ];
    expect(pathTooLongForZip(tooLong)).toBe(`é${longest}`);
    expect(() => createZipArchive(tooLong, { compress: true })).toThrow(RangeError);
  });
});
