import type { Writable } from 'node:stream';

/** Bytes per write to the destination. */
const BATCH_SIZE = 4 * 1024 * 1024;
/** One batch being written while two are being filled. */
const BATCHES = 3;
/** The most an output holds: its batches, allocated as they are needed. */
export const BATCHED_OUTPUT_BYTES = BATCH_SIZE * BATCHES;
/** Reads in flight at once: enough to hide each file's open and read, few enough file handles. */
const READS_IN_FLIGHT = 16;

/** Fills `length` bytes of `target` from `targetOffset` with the part of a source that starts at `position`. */
export type ReadPart = (target: Buffer, targetOffset: number, position: number, length: number) => Promise<void>;

/**
 * Output assembled in 4 MiB batches written to `destination` one at a time, in order.
 * Small pieces (headers) are copied in; a source's bytes are read straight into their
 * place in the batch, several sources at once, so no file gets a buffer or a write of its
 * own. A batch is reused only after the destination's write callback: memory stays
 * 3 × 4 MiB whatever the archive's size.
 */
export class BatchedOutput {
  private readonly free: Buffer[] = [];
  private readonly waitingForBuffer: Array<{ resolve(buffer: Buffer): void; reject(error: Error): void }> = [];
  private allocated = 0;
  private current: { buffer: Buffer; used: number; reads: Promise<void>[] } | undefined;
  private written: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  private readsInFlight = 0;
  private readonly waitingForRead: Array<() => void> = [];

  constructor(private readonly destination: Writable) {}

  /** Copies `bytes` in. */
  async append(bytes: Buffer): Promise<void> {
    let from = 0;
    while (from < bytes.length) {
      const batch = await this.batch();
      const copied = bytes.copy(batch.buffer, batch.used, from);
      batch.used += copied;
      from += copied;
      this.sealIfFull();
    }
  }

  /** Reserves `length` bytes and has `read` fill them in place, without waiting for it. */
  async appendRead(length: number, read: ReadPart): Promise<void> {
    let position = 0;
    while (position < length) {
      const batch = await this.batch();
      const part = Math.min(length - position, batch.buffer.length - batch.used);
      const [target, targetOffset, from] = [batch.buffer, batch.used, position];
      const reading = this.limited(() => read(target, targetOffset, from, part));
      // Awaited when the batch is written; until then a failure must not count as unhandled.
      reading.catch(() => {});
      batch.reads.push(reading);
      batch.used += part;
      position += part;
      this.sealIfFull();
    }
  }

  /** Writes what is left and resolves once every batch has been written. */
  async finish(): Promise<void> {
    if (this.current && this.current.used > 0) this.seal();
    await this.written;
  }

  private async batch() {
    if (this.failure) throw this.failure;
    if (!this.current) this.current = { buffer: await this.takeBuffer(), used: 0, reads: [] };
    return this.current;
  }

  private sealIfFull() {
    if (this.current && this.current.used === this.current.buffer.length) this.seal();
  }

  private seal() {
    const { buffer, used, reads } = this.current!;
    this.current = undefined;
    this.written = this.written
      .then(() => Promise.all(reads))
      .then(() => writeChunk(this.destination, buffer.subarray(0, used)))
      .then(
        () => this.releaseBuffer(buffer),
        (error: Error) => {
          this.failure ??= error;
          for (const waiting of this.waitingForBuffer.splice(0)) waiting.reject(error);
          throw error;
        },
      );
    // Reported by finish() or by the next batch(); not unhandled meanwhile.
    this.written.catch(() => {});
  }

  private takeBuffer(): Promise<Buffer> {
    const reused = this.free.pop();
    if (reused) return Promise.resolve(reused);
    if (this.allocated < BATCHES) {
      this.allocated += 1;
      return Promise.resolve(Buffer.allocUnsafeSlow(BATCH_SIZE));
    }
    return new Promise((resolve, reject) => this.waitingForBuffer.push({ resolve, reject }));
  }

  private releaseBuffer(buffer: Buffer) {
    const waiting = this.waitingForBuffer.shift();
    if (waiting) waiting.resolve(buffer);
    else this.free.push(buffer);
  }

  private async limited(read: () => Promise<void>): Promise<void> {
    while (this.readsInFlight >= READS_IN_FLIGHT) await new Promise<void>((resolve) => this.waitingForRead.push(resolve));
    this.readsInFlight += 1;
    try {
      // Once the output has failed, reads still queued would fill buffers nobody writes.
      if (this.failure) throw this.failure;
      await read();
    } finally {
      this.readsInFlight -= 1;
      this.waitingForRead.shift()?.();
    }
  }
}

/** One write, resolved by its callback; a destination that closes first rejects it, as it would never call back. */
export function writeChunk(destination: Writable, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = () =>
      reject(Object.assign(new Error('The destination closed before the last byte'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    if (destination.destroyed) return closed();
    destination.once('close', closed);
    destination.write(chunk, (error) => {
      destination.off('close', closed);
      if (error) reject(error);
      else resolve();
    });
  });
}
