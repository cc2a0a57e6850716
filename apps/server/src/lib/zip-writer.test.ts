import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readZip } from '../../test/helpers/read-zip.ts';
import { createZipStream, type ZipEntry } from './zip-writer.ts';

const when = new Date('2026-03-04T05:06:08Z');

function fileEntry(entryPath: string, bytes: Buffer, chunkSize = 7): ZipEntry {
  return {
    path: entryPath,
    modifiedAt: when,
    file: {
      size: bytes.length,
      crc32: zlib.crc32(bytes),
      // Many small chunks, as a real blob stream would deliver them.
      open: async () => Readable.from(Array.from({ length: Math.ceil(bytes.length / chunkSize) }, (_, i) => bytes.subarray(i * chunkSize, (i + 1) * chunkSize))),
    },
  };
}


describe.each([
  ['stored', false],
  ['deflated', true],
])('createZipStream (%s)', (_mode, compress) => {
  it('round-trips files, unicode names and empty directories byte for byte', async () => {
    const big = randomBytes(3 * 1024 * 1024 + 17);
    const text = Buffer.from('hello '.repeat(1000));
    const entries: ZipEntry[] = [
      { path: 'empty/', modifiedAt: when },
      { path: 'docs/', modifiedAt: when },
      fileEntry('docs/Ünïcödé 日本 "q".txt', text),
      fileEntry('big.bin', big, 64 * 1024),
      fileEntry('zero.txt', Buffer.alloc(0)),
    ];
    const archive = await buffer(createZipStream(entries, { compress }));
    const read = await readZip(archive);

    expect([...read.keys()]).toEqual(['empty/', 'docs/', 'docs/Ünïcödé 日本 "q".txt', 'big.bin', 'zero.txt']);
    expect(read.get('empty/')).toBe('dir');
    expect((read.get('docs/Ünïcödé 日本 "q".txt') as Buffer).equals(text)).toBe(true);
    expect((read.get('big.bin') as Buffer).equals(big)).toBe(true);
    expect((read.get('zero.txt') as Buffer).length).toBe(0);
    if (compress) expect(archive.length).toBeLessThan(big.length + text.length);
    else expect(archive.length).toBeGreaterThan(big.length + text.length);
  });

  it('fails the stream when a blob is shorter than its recorded size', async () => {
    const bytes = randomBytes(100);
    const entry = fileEntry('short.bin', bytes);
    const lying: ZipEntry = { ...entry, file: { ...entry.file!, size: 150 } };
    await expect(buffer(createZipStream([lying], { compress }))).rejects.toThrow(/expected 150 bytes, read 100/);
  });
});

describe('zip64', () => {
  it('writes the zip64 end records when there are more than 65,535 entries', async () => {
    const entries = Array.from({ length: 70_000 }, (_, i): ZipEntry => ({ path: `d${i}/`, modifiedAt: when }));
    const archive = await buffer(createZipStream(entries, { compress: false }));
    expect(archive.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    const read = await readZip(archive);
    expect(read.size).toBe(70_000);
    expect(read.get('d69999/')).toBe('dir');
  }, 60_000);

  it('sends the first bytes before later files are opened, reading at most 32 files ahead', async () => {
    const opened: string[] = [];
    const entries = Array.from({ length: 60 }, (_, i) => {
      const entry = fileEntry(`f${i}.bin`, randomBytes(10));
      return { ...entry, file: { ...entry.file!, open: async () => (opened.push(entry.path), entry.file!.open()) } };
    });
    const stream = createZipStream(entries, { compress: false });
    await stream[Symbol.asyncIterator]().next();
    expect(opened.length).toBeGreaterThan(0);
    expect(opened.length).toBeLessThanOrEqual(33);
    stream.destroy();
  });
});
