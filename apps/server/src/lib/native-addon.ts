import { createRequire } from 'node:module';

/**
 * What the addon sends into a socket: bytes in memory, a range of an open file or a path,
 * or a run of members (zip-member-run.ts): each one's header, then its whole file by path.
 */
export type SocketSegment =
  | Buffer
  | { fd: number; offset: number; length: number }
  | { path: string; offset: number; length: number }
  | { headers: Buffer; paths: string; lengths: Float64Array; length: number };

/** packages/native, as its C code exports it (docs/decisions/0012). */
export interface NativeAddon {
  /** Linux only. */
  send(
    socketFd: number,
    segments: readonly SocketSegment[],
    idleTimeoutMs: number,
    done: (error: Error | null, bytesSent: number) => void,
  ): object;
  cancel(handle: object): void;
  /** A new sha256, or one going on from exportHasher's state. */
  createHasher(state?: Buffer): object;
  updateHasher(hasher: object, chunks: Buffer[], done: (error: Error | null) => void): void;
  /** sha256 as lower-case hex. */
  digestHasher(hasher: object): string;
  /** The state after every byte hashed so far (an idle hasher), for createHasher on any node of the same build. */
  exportHasher(hasher: object): Buffer;
  /** Writes go to a dup of `fd` from `offset` (default 0): the caller's descriptor may be closed at any time. */
  createFileWriter(fd: number, offset?: number): object;
  writeFile(writer: object, chunks: Buffer[], done: (error: Error | null) => void): void;
  /** Writes what is left, fsyncs and closes the writer's descriptor. */
  finishFile(writer: object, done: (error: Error | null) => void): void;
  /** At once, or when the job in flight is done. */
  closeFileWriter(writer: object): void;
}

function load(): Partial<NativeAddon> {
  try {
    return createRequire(import.meta.url)('@cloudvault/native') as Partial<NativeAddon>;
  } catch (error) {
    // `npm install` builds it when a C compiler is there; without, everything still works, slower.
    console.warn(
      `The native addon is not built (${(error as Error).message}): uploads hash on the main thread and downloads go through buffers.`,
    );
    return {};
  }
}

let chosen: Partial<NativeAddon> | undefined;

/**
 * Chooses the paths once, at start-up (createContainer): the addon, or with `enabled` false
 * (CLOUDVAULT_NATIVE=0) nothing at all, not even loaded, so that uploads hash with
 * node:crypto and are written through FileHandle and downloads and zips go through buffers,
 * as on a build without the addon. Gives the line the start-up log shows.
 */
export function loadNativeAddon(enabled: boolean): string {
  chosen = enabled ? load() : {};
  if (!enabled) return 'the portable paths (CLOUDVAULT_NATIVE=0): hashing with node:crypto, FileHandle writes, buffered downloads and zips';
  if (!chosen.createHasher)
    return 'the portable paths (the native addon is not built): hashing with node:crypto, FileHandle writes, buffered downloads and zips';
  if (!chosen.send) return 'the native addon for hashing and writes; downloads and zips through buffers (no sendfile on this system)';
  return 'the native addon: hashing and O_DIRECT writes on the thread pool, sendfile for downloads and zips';
}

/**
 * The addon as start-up chose it, or only the parts this system has: none when it was not
 * built or CLOUDVAULT_NATIVE=0, no `send` off Linux. Code that runs without a start-up
 * (unit tests, bench servers) gets it loaded on first use.
 */
export function nativeAddon(): Partial<NativeAddon> {
  return (chosen ??= load());
}
