import type { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { withoutBidiControls } from '@cloudvault/contract/validation';
import { BATCHED_OUTPUT_BYTES, BatchedOutput, type ReadPart, writeChunk } from './batched-output.ts';
import type { DirectSocket } from './direct-socket.ts';
import { CentralDirectory } from './zip-central-directory.ts';
import { MemberRun } from './zip-member-run.ts';
import { dataDescriptor, dosDateTime, localHeader, type MemberInfo } from './zip-records.ts';

/** One archive member: a directory (path ends with '/') or a file whose CRC32 and size are known. */
export interface ZipEntry {
  path: string;
  modifiedAt: Date;
  file?: {
    size: number;
    /** CRC32 of the uncompressed bytes, computed when they were uploaded. */
    crc32: number;
    /** Fills part of a buffer with the file's bytes from `position`; rejects if the file is shorter. */
    read: ReadPart;
    /** The key its bytes are stored under, so that a sender that has them on disk can send them from there. */
    storedKey?: string;
  };
}

/** How a sender with the stored files on this machine's disk sends them: straight into the socket. */
export interface DirectSending {
  /** The destination's socket, or null when bytes cannot go into it directly. */
  socket(): Promise<DirectSocket | null>;
  /** The file that holds a stored key's bytes. */
  pathOf(storedKey: string): string;
}

/** An archive written once into a destination, which the caller then ends. */
export interface ZipArchive {
  /**
   * Writes the archive. `direct`, when given, is used only if every member can be sent
   * from its file on disk (stored mode, every file with its stored key).
   */
  writeTo(destination: Writable, direct?: DirectSending): Promise<void>;
  /** The most memory writing holds at once, reserved from the transfer budget before sending. */
  readonly bufferBytes: number;
}

/** An entry name's length is a 16-bit field of its headers (APPNOTE 4.4.10): longer paths cannot be written. */
export const MAX_ENTRY_NAME_BYTES = 0xffff;

/** The first entry whose path, in UTF-8, does not fit in a zip entry name; undefined when all fit. */
export function pathTooLongForZip(entries: Iterable<ZipEntry>): string | undefined {
  for (const entry of entries) {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: most paths need no count at all.
    if (entry.path.length * 3 > MAX_ENTRY_NAME_BYTES && Buffer.byteLength(entry.path, 'utf8') > MAX_ENTRY_NAME_BYTES) return entry.path;
  }
  return undefined;
}

/** Bytes read per step when deflating: the input buffer is reused for the whole file. */
const DEFLATE_READ_SIZE = 1024 * 1024;
/** zlib's own state while deflating (window, hash chains, pending output), generously. */
const DEFLATE_STATE_BYTES = 512 * 1024;
/**
 * Members in the first send on a direct socket: its bytes leave once a few headers are
 * built. Each later send takes twice as many, up to MEMBERS_PER_SEND: building headers is
 * about ten times faster than sending the files, so each group is ready before the one
 * ahead of it has left (docs/decisions/0012, "Zips are pipelined").
 */
const FIRST_SEND_MEMBERS = 16;
/** The most members per send: one thread's work per group, not a round trip per file, and at most two groups held. */
const MEMBERS_PER_SEND = 512;

type Pages = Iterable<readonly ZipEntry[]> | AsyncIterable<readonly ZipEntry[]>;

type SendableEntry = ZipEntry & { file?: ZipEntry['file'] & { storedKey: string } };

/**
 * A zip archive written while it is read: the first bytes leave before the last file is
 * opened. Stored mode uses each file's stored CRC32, so bytes are never read twice: sent
 * from disk with sendfile when the files are local and the socket allows it, otherwise
 * read straight into the output (1,000 files of 100 KiB: about 370 MB/s through a stream
 * per file, see docs/decisions/0007). Deflate mode compresses on the way. Zip64 wherever
 * sizes, offsets or the entry count need it. Paths must already be safe (relative,
 * '/'-separated, no '..').
 */
export function createZipArchive(
  entries: readonly ZipEntry[] | AsyncIterable<readonly ZipEntry[]>,
  options: {
    compress: boolean;
    /**
     * For entries read as they are written (pages of them, such as a folder read from the
     * database a page at a time): whether every file has its `storedKey`. Arrays are checked.
     */
    everyFileStored?: boolean;
  },
): ZipArchive {
  const listed = Array.isArray(entries) ? (entries as readonly ZipEntry[]) : undefined;
  // A page at a time: one await per page, not per member.
  const pages: Pages = listed ? [listed] : (entries as AsyncIterable<readonly ZipEntry[]>);
  // Callers refuse such archives with a message of their own; this keeps a header from
  // failing halfway through a response.
  if (listed && pathTooLongForZip(listed) !== undefined)
    throw new RangeError(`A zip entry name is limited to ${MAX_ENTRY_NAME_BYTES} bytes`);
  const sendable = listed ? listed.every(isSendable) : options.everyFileStored === true;
  return {
    // The batched output's, which a zip takes when its socket cannot be sent into directly.
    bufferBytes: BATCHED_OUTPUT_BYTES + (options.compress ? DEFLATE_READ_SIZE + DEFLATE_STATE_BYTES : 0),
    async writeTo(destination, direct) {
      const socket = !options.compress && direct && sendable ? await direct.socket() : null;
      if (socket && direct) await sendStored(pages, socket, direct.pathOf, destination);
      else await writeBatched(pages, options.compress, destination);
    },
  };
}

function isSendable(entry: ZipEntry): entry is SendableEntry {
  return entry.file?.storedKey !== undefined || !entry.file;
}

/**
 * An entry path as stored in the archive: without bidirectional controls, which names
 * stored before they were stripped may still hold (docs/decisions/0014), and with a name
 * made only of them kept as `_` rather than an empty segment.
 */
function entryName(path: string): Buffer {
  if (withoutBidiControls(path) === path) return Buffer.from(path, 'utf8');
  const segments = path.split('/').map((segment) => {
    const visible = withoutBidiControls(segment);
    return visible === '' && segment !== '' ? '_' : visible;
  });
  return Buffer.from(segments.join('/'), 'utf8');
}

function memberOf(entry: ZipEntry, offset: number, compress: boolean): MemberInfo {
  const name = entryName(entry.path);
  // Callers check before the first byte; a header with a cut length field would be worse than a cut zip.
  if (name.length > MAX_ENTRY_NAME_BYTES) throw new RangeError(`A zip entry name is limited to ${MAX_ENTRY_NAME_BYTES} bytes`);
  return {
    name,
    dosTime: dosDateTime(entry.modifiedAt),
    size: entry.file?.size ?? 0,
    crc32: entry.file ? entry.file.crc32 >>> 0 : 0,
    isDirectory: !entry.file,
    deflated: compress && entry.file !== undefined,
    offset,
  };
}

/**
 * Members go out with sendfile a group at a time, each group built while the one before it
 * is being sent; the central directory, last, through the destination itself, so that the
 * response is finished when the client holds the whole zip.
 */
async function sendStored(pages: Pages, socket: DirectSocket, pathOf: DirectSending['pathOf'], destination: Writable): Promise<void> {
  const central = new CentralDirectory();
  let offset = 0;
  let run = new MemberRun();
  let groupSize = FIRST_SEND_MEMBERS;
  let sending: Promise<void> = Promise.resolve();
  // The socket takes one send at a time, in order: a group waits for the one before it.
  const sendGroup = async () => {
    await sending;
    const sent = socket.send([run.segment()]);
    // Awaited before the next send or at the end; a failure meanwhile is not unhandled.
    sent.catch(() => {});
    sending = sent;
    run = new MemberRun();
    groupSize = Math.min(groupSize * 2, MEMBERS_PER_SEND);
  };
  for await (const page of pages) {
    for (const entry of page) {
      if (!isSendable(entry)) throw new Error(`The zip member ${entry.path} has no local file to send`);
      const member = memberOf(entry, offset, false);
      offset += run.add(member, entry.file && member.size > 0 ? pathOf(entry.file.storedKey) : '');
      central.add(member, member.size);
      if (run.size === groupSize) await sendGroup();
    }
  }
  await sendGroup();
  await sending;
  // Already packed in chunks: written as they are, without a 4 MiB batch to copy them into
  // (each zip's batch had the garbage collector mark the whole heap every 16 zips).
  for (const chunk of central.end(offset)) await writeChunk(destination, chunk);
}

async function writeBatched(pages: Pages, compress: boolean, destination: Writable): Promise<void> {
  const output = new BatchedOutput(destination);
  const central = new CentralDirectory();
  let offset = 0;
  for await (const page of pages) {
    for (const entry of page) {
      const member = memberOf(entry, offset, compress);
      const header = localHeader(member);
      await output.append(header);
      let storedSize = member.size;
      let descriptorLength = 0;
      if (entry.file && member.deflated) {
        storedSize = await appendDeflated(output, entry.file);
        const descriptor = dataDescriptor(member, storedSize);
        await output.append(descriptor);
        descriptorLength = descriptor.length;
      } else if (entry.file && member.size > 0) {
        await output.appendRead(member.size, entry.file.read);
      }
      central.add(member, storedSize);
      offset += header.length + storedSize + descriptorLength;
    }
  }
  for (const record of central.end(offset)) await output.append(record);
  await output.finish();
}

/** Reads the file a step at a time through raw deflate into the output; resolves with the compressed size. */
async function appendDeflated(output: BatchedOutput, file: NonNullable<ZipEntry['file']>): Promise<number> {
  const deflate = zlib.createDeflateRaw();
  const input = Buffer.allocUnsafe(Math.min(DEFLATE_READ_SIZE, Math.max(file.size, 1)));
  const feed = async () => {
    for (let position = 0; position < file.size; position += input.length) {
      const length = Math.min(input.length, file.size - position);
      await file.read(input, 0, position, length);
      // Called back once zlib has consumed the chunk, so the input buffer can be read into again.
      await new Promise<void>((resolve, reject) =>
        deflate.write(input.subarray(0, length), (error) => (error ? reject(error) : resolve())),
      );
    }
    deflate.end();
  };
  const drain = async () => {
    let stored = 0;
    for await (const chunk of deflate as AsyncIterable<Buffer>) {
      stored += chunk.length;
      await output.append(chunk);
    }
    return stored;
  };
  const feeding = feed().catch((error: Error) => {
    deflate.destroy(error);
    throw error;
  });
  const [, stored] = await Promise.all([feeding, drain()]);
  return stored;
}
