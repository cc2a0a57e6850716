import type { SocketSegment } from './native-addon.ts';
import { localHeaderLength, type MemberInfo, writeLocalHeader } from './zip-records.ts';

/** Header bytes a run starts with: 16 KiB holds a few hundred ordinary names before it grows. */
const INITIAL_HEADER_BYTES = 16 * 1024;

/**
 * Stored members gathered for one send of the native addon: their local headers written
 * back to back into one Buffer, their files' paths in one string, and their lengths in one
 * Float64Array. The addon reads those three values for the whole run, where a segment per
 * header and per file cost it several property reads apiece and the collector an object
 * each (docs/decisions/0012, "Zips are pipelined").
 */
export class MemberRun {
  private headers = Buffer.allocUnsafe(INITIAL_HEADER_BYTES);
  private used = 0;
  private readonly paths: string[] = [];
  private readonly lengths: number[] = [];
  private bytes = 0;

  /** How many members the run holds. */
  get size(): number {
    return this.paths.length;
  }

  /**
   * Adds a member, with the file its bytes are sent from (`path`, '' for a directory or an
   * empty file); returns the bytes it takes in the archive.
   */
  add(member: MemberInfo, path: string): number {
    const headerLength = localHeaderLength(member);
    if (this.used + headerLength > this.headers.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.headers.length * 2, this.used + headerLength));
      this.headers.copy(grown, 0, 0, this.used);
      this.headers = grown;
    }
    writeLocalHeader(this.headers, this.used, member);
    this.used += headerLength;
    this.paths.push(path);
    this.lengths.push(headerLength, member.size);
    this.bytes += headerLength + member.size;
    return headerLength + member.size;
  }

  /** The run as the addon's segment: each path followed by a NUL, which no path can hold. */
  segment(): SocketSegment {
    return {
      headers: this.headers.subarray(0, this.used),
      paths: this.paths.map((path) => `${path}\0`).join(''),
      lengths: Float64Array.from(this.lengths),
      length: this.bytes,
    };
  }
}
