import { createRequire } from 'node:module';
import type { SocketSegment } from './direct-socket.ts';

/** packages/native, as its C code exports it (docs/decisions/0012). */
export interface NativeAddon {
  /** Linux only. */
  send(socketFd: number, segments: readonly SocketSegment[], idleTimeoutMs: number, done: (error: Error | null, bytesSent: number) => void): object;
  cancel(handle: object): void;
  createHasher(): object;
  updateHasher(hasher: object, chunks: Buffer[], done: (error: Error | null) => void): void;
  /** sha256 as lower-case hex. */
  digestHasher(hasher: object): string;
  /** Writes go to a dup of `fd`: the caller's descriptor may be closed at any time. */
  createFileWriter(fd: number): object;
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
    console.warn(`The native addon is not built (${(error as Error).message}): uploads hash on the main thread and downloads go through buffers.`);
    return {};
  }
}

/** The addon, or only the parts this system has: none when it was not built, no `send` off Linux. */
export const nativeAddon: Partial<NativeAddon> = load();
