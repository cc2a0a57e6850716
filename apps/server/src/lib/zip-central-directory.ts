import { centralHeaderLength, endRecords, type MemberInfo, writeCentralHeader } from './zip-records.ts';

/** Bytes per chunk of packed records. */
const CHUNK_BYTES = 64 * 1024;

/**
 * A zip's central directory as its members are written: their records written in place
 * into 64 KiB chunks. Held until the archive's end, a Buffer per record was an object per
 * member for the garbage collector to copy and promote, most of the CPU a 1,000-file zip
 * spent collecting (docs/decisions/0012, "Zips are pipelined").
 */
export class CentralDirectory {
  private readonly filled: Buffer[] = [];
  private current: Buffer | undefined;
  private used = 0;
  private count = 0;
  private size = 0;

  /** The member's central record, written straight into the current chunk. */
  add(member: MemberInfo, storedSize: number): void {
    const length = centralHeaderLength(member);
    if (!this.current || this.used + length > this.current.length) {
      if (this.current) this.filled.push(this.current.subarray(0, this.used));
      // A record may be longer than a chunk (a name of up to 65,535 bytes).
      this.current = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, length));
      this.used = 0;
    }
    writeCentralHeader(this.current, this.used, member, storedSize);
    this.used += length;
    this.count += 1;
    this.size += length;
  }

  /** The records, then the end records, for a directory that starts where the members ended, at `offset`. */
  end(offset: number): Buffer[] {
    const records = this.current ? [...this.filled, this.current.subarray(0, this.used)] : [...this.filled];
    return [...records, endRecords(this.count, offset, this.size)];
  }
}
