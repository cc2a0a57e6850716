/** The binary records of a zip archive (APPNOTE 6.3), zip64 where a size, offset or count needs it. */

const MAX_32 = 0xffffffff;
const MAX_16 = 0xffff;
/** Deflate can grow incompressible data slightly; past this, sizes get zip64 fields. */
const ZIP64_SIZE_THRESHOLD = MAX_32 - 16 * 1024 * 1024;
const UTF8_NAMES = 0x0800;
const DATA_DESCRIPTOR = 0x0008;
const MADE_BY_UNIX = (3 << 8) | 45;

/** What the local header, descriptor and central record of one member share. */
export interface MemberInfo {
  name: Buffer;
  /** From dosDateTime(modifiedAt): both headers hold it. */
  dosTime: DosDateTime;
  /** Uncompressed size; 0 for a directory. */
  size: number;
  crc32: number;
  isDirectory: boolean;
  /** Deflated members carry CRC and sizes after the data, in a descriptor. */
  deflated: boolean;
  /** Where the local header starts in the archive. */
  offset: number;
}

export interface DosDateTime {
  time: number;
  date: number;
}

/** A time as zip headers hold it (MS-DOS, two-second steps, 1980-2107). */
export function dosDateTime(date: Date): DosDateTime {
  const year = Math.min(Math.max(date.getUTCFullYear(), 1980), 2107);
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

const NO_EXTRA = Buffer.alloc(0);

function zip64Extra(values: number[]): Buffer {
  if (values.length === 0) return NO_EXTRA;
  const extra = Buffer.alloc(4 + values.length * 8);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(values.length * 8, 2);
  values.forEach((value, i) => extra.writeBigUInt64LE(BigInt(value), 4 + i * 8));
  return extra;
}

const hasBigSizes = (member: MemberInfo) => member.size > ZIP64_SIZE_THRESHOLD;
const versionNeeded = (member: MemberInfo) => (hasBigSizes(member) || member.offset >= MAX_32 ? 45 : 20);
const flagsOf = (member: MemberInfo) => UTF8_NAMES | (member.deflated ? DATA_DESCRIPTOR : 0);

/** The length of a member's local header. */
export function localHeaderLength(member: MemberInfo): number {
  return 30 + member.name.length + (hasBigSizes(member) ? 20 : 0);
}

/** A member's local header, in a Buffer of its own. */
export function localHeader(member: MemberInfo): Buffer {
  // From Node's shared pool (allocUnsafe) rather than an ArrayBuffer of its own: every byte is written.
  const record = Buffer.allocUnsafe(localHeaderLength(member));
  writeLocalHeader(record, 0, member);
  return record;
}

/**
 * Writes a member's local header into `target` at `start` (localHeaderLength bytes). Stored
 * members carry CRC and sizes up front: their bytes then pass through untouched, once.
 */
export function writeLocalHeader(target: Buffer, start: number, member: MemberInfo): void {
  const big = hasBigSizes(member);
  const { deflated, size } = member;
  const extra = big ? zip64Extra(deflated ? [0, 0] : [size, size]) : NO_EXTRA;
  const { time, date } = member.dosTime;
  target.writeUInt32LE(0x04034b50, start);
  target.writeUInt16LE(versionNeeded(member), start + 4);
  target.writeUInt16LE(flagsOf(member), start + 6);
  target.writeUInt16LE(deflated ? 8 : 0, start + 8);
  target.writeUInt16LE(time, start + 10);
  target.writeUInt16LE(date, start + 12);
  target.writeUInt32LE(deflated ? 0 : member.crc32, start + 14);
  const declared = big ? MAX_32 : deflated ? 0 : size;
  target.writeUInt32LE(declared, start + 18);
  target.writeUInt32LE(declared, start + 22);
  target.writeUInt16LE(member.name.length, start + 26);
  target.writeUInt16LE(extra.length, start + 28);
  member.name.copy(target, start + 30);
  extra.copy(target, start + 30 + member.name.length);
}

/** After a deflated member's data: its CRC and both sizes, now known. */
export function dataDescriptor(member: MemberInfo, storedSize: number): Buffer {
  const big = hasBigSizes(member);
  const record = Buffer.alloc(big ? 24 : 16);
  record.writeUInt32LE(0x08074b50, 0);
  record.writeUInt32LE(member.crc32, 4);
  if (big) {
    record.writeBigUInt64LE(BigInt(storedSize), 8);
    record.writeBigUInt64LE(BigInt(member.size), 16);
  } else {
    record.writeUInt32LE(storedSize, 8);
    record.writeUInt32LE(member.size, 12);
  }
  return record;
}

/** A member's zip64 values in its central record: sizes when they are big, the offset when it is past 4 GiB. */
function centralZip64Values(member: MemberInfo, storedSize: number): number[] {
  const values = hasBigSizes(member) ? [member.size, storedSize] : [];
  if (member.offset >= MAX_32) values.push(member.offset);
  return values;
}

/** How many values centralZip64Values gives, counted without building them (asked once per member). */
function centralZip64Count(member: MemberInfo): number {
  return (hasBigSizes(member) ? 2 : 0) + (member.offset >= MAX_32 ? 1 : 0);
}

/** The length of a member's central record. */
export function centralHeaderLength(member: MemberInfo): number {
  const zip64Values = centralZip64Count(member);
  return 46 + member.name.length + (zip64Values > 0 ? 4 + zip64Values * 8 : 0);
}

/**
 * Writes a member's central record into `target` at `start` (centralHeaderLength bytes), so
 * that records are packed where they are kept rather than each made and then copied.
 */
export function writeCentralHeader(target: Buffer, start: number, member: MemberInfo, storedSize: number): void {
  const big = hasBigSizes(member);
  const extra = centralZip64Count(member) > 0 ? zip64Extra(centralZip64Values(member, storedSize)) : NO_EXTRA;
  const { time, date } = member.dosTime;
  target.writeUInt32LE(0x02014b50, start);
  target.writeUInt16LE(MADE_BY_UNIX, start + 4);
  target.writeUInt16LE(versionNeeded(member), start + 6);
  target.writeUInt16LE(flagsOf(member), start + 8);
  target.writeUInt16LE(member.deflated ? 8 : 0, start + 10);
  target.writeUInt16LE(time, start + 12);
  target.writeUInt16LE(date, start + 14);
  target.writeUInt32LE(member.crc32, start + 16);
  target.writeUInt32LE(big ? MAX_32 : storedSize, start + 20);
  target.writeUInt32LE(big ? MAX_32 : member.size, start + 24);
  target.writeUInt16LE(member.name.length, start + 28);
  target.writeUInt16LE(extra.length, start + 30);
  // No comment, disk 0, no internal attributes.
  target.fill(0, start + 32, start + 38);
  target.writeUInt32LE(member.isDirectory ? ((0o40755 << 16) | 0x10) >>> 0 : (0o100644 << 16) >>> 0, start + 38);
  target.writeUInt32LE(Math.min(member.offset, MAX_32), start + 42);
  member.name.copy(target, start + 46);
  extra.copy(target, start + 46 + member.name.length);
}

/** The end of central directory, preceded by its zip64 form and locator when needed. */
export function endRecords(count: number, centralOffset: number, centralSize: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, MAX_16), 8);
  end.writeUInt16LE(Math.min(count, MAX_16), 10);
  end.writeUInt32LE(Math.min(centralSize, MAX_32), 12);
  end.writeUInt32LE(Math.min(centralOffset, MAX_32), 16);
  if (count < MAX_16 && centralOffset < MAX_32 && centralSize < MAX_32) return end;

  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(MADE_BY_UNIX, 12);
  record.writeUInt16LE(45, 14);
  record.writeBigUInt64LE(BigInt(count), 24);
  record.writeBigUInt64LE(BigInt(count), 32);
  record.writeBigUInt64LE(BigInt(centralSize), 40);
  record.writeBigUInt64LE(BigInt(centralOffset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(centralOffset + centralSize), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([record, locator, end]);
}
