import { describe, expect, it } from 'vitest';
import {
  centralHeaderLength,
  dosDateTime,
  localHeader,
  localHeaderLength,
  type MemberInfo,
  writeCentralHeader,
  writeLocalHeader,
} from './zip-records.ts';

const member = (size: number, offset: number): MemberInfo => ({
  name: Buffer.from('big.bin'),
  dosTime: dosDateTime(new Date('2026-12-01T12:00:00Z')),
  size,
  crc32: 0x12345678,
  isDirectory: false,
  deflated: false,
  offset,
});

/** The zip64 extra field of a record whose name starts at `nameAt`: its tag, its length and its values. */
function zip64Extra(record: Buffer, nameAt: number, nameLength: number, extraLength: number) {
  const extra = record.subarray(nameAt + nameLength, nameAt + nameLength + extraLength);
  return {
    tag: extra.readUInt16LE(0),
    length: extra.readUInt16LE(2),
    values: Array.from({ length: (extra.length - 4) / 8 }, (_, i) => Number(extra.readBigUInt64LE(4 + i * 8))),
  };
}

describe('zip records written in place', () => {
  it.each([
    ['small, near the start', 1000, 0, []],
    ['past 4 GiB in the archive', 1000, 2 ** 32 + 5, [2 ** 32 + 5]],
    ['larger than 4 GiB itself', 5 * 2 ** 30, 10, [5 * 2 ** 30, 5 * 2 ** 30]],
    ['large, past 4 GiB', 5 * 2 ** 30, 2 ** 33, [5 * 2 ** 30, 5 * 2 ** 30, 2 ** 33]],
  ])('gives a central record (%s) exactly the length it writes, zip64 values where needed', (_case, size, offset, zip64Values) => {
    const info = member(size, offset);
    const length = centralHeaderLength(info);
    // Written between two guard bytes: nothing before `start` or past its length is touched.
    const target = Buffer.alloc(length + 2, 0xee);
    writeCentralHeader(target, 1, info, size);
    expect(target[0]).toBe(0xee);
    expect(target[length + 1]).toBe(0xee);
    const record = target.subarray(1, length + 1);
    expect(record.readUInt32LE(0)).toBe(0x02014b50);
    const extraLength = record.readUInt16LE(30);
    expect(46 + info.name.length + extraLength).toBe(length);
    if (zip64Values.length === 0) expect(extraLength).toBe(0);
    else
      expect(zip64Extra(record, 46, info.name.length, extraLength)).toEqual({
        tag: 1,
        length: zip64Values.length * 8,
        values: zip64Values,
      });
  });

  it('writes the same local header in place as in a Buffer of its own', () => {
    for (const info of [member(1000, 0), member(5 * 2 ** 30, 0)]) {
      const target = Buffer.alloc(localHeaderLength(info) + 3, 0xee);
      writeLocalHeader(target, 3, info);
      expect(target.subarray(3).equals(localHeader(info))).toBe(true);
      expect(target.subarray(0, 3).equals(Buffer.alloc(3, 0xee))).toBe(true);
    }
  });
});
