/**
 * Frees an upload's chunks as soon as the last of their readers (the hash and the file
 * write) is done with them, instead of when V8 collects them. A 1 GiB upload arrives as
 * 16,000 socket buffers of 64 KiB that outlive two young-generation collections while
 * they wait to be hashed and written, so they reach the old generation and wait there for
 * a full collection, which V8 only starts once 64 MB more of them have piled up: that
 * was the whole 50-60 MB rise of the server's RSS during an upload (bench/README.md,
 * "Memory"; docs/decisions/0035-server-memory.md).
 *
 * Only a chunk that is a whole ArrayBuffer of its own is freed (an HTTP body's chunk, a
 * file read's); a view into a shared one (busboy's look-behind, Buffer's pool) is left to
 * the collector. The stream that marks chunks must own them: nothing may read them after
 * their last reader releases them.
 */
const readersLeft = new WeakMap<Buffer, number>();

/** Chunks smaller than this are not worth a WeakMap entry. */
const MIN_FREED_BYTES = 4096;

export function awaitReaders(chunk: Buffer, readers: number): void {
  if (
    chunk.byteOffset === 0 &&
    chunk.byteLength === chunk.buffer.byteLength &&
    chunk.byteLength >= MIN_FREED_BYTES &&
    chunk.buffer instanceof ArrayBuffer
  ) {
    readersLeft.set(chunk, readers);
  }
}

/** One reader is done with `chunk`; the last one frees its memory. A chunk never marked is left alone. */
export function releaseChunk(chunk: Buffer): void {
  const left = readersLeft.get(chunk);
  if (left === undefined) return;
  if (left > 1) {
    readersLeft.set(chunk, left - 1);
    return;
  }
  readersLeft.delete(chunk);
  // Detaching gives the memory back at once; the chunk (and any view of it) reads as empty
  // from here on. A buffer that cannot be detached (WebAssembly's memory) is left to the collector.
  try {
    (chunk.buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
  } catch {
    // Not detachable: collected as before.
  }
}
