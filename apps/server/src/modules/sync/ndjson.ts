import { Readable } from 'node:stream';

/** Bytes gathered before a write: one chunk per many lines rather than per line. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Newline-delimited JSON written as it is read: one value a line, taken from an async
 * iterable (pages of rows). A failure while reading destroys the stream, so the client
 * sees a cut answer (no last line), never a wrong one.
 */
export function ndjsonStream(values: AsyncIterable<unknown>): Readable {
  async function* text(): AsyncGenerator<string> {
    let chunk = '';
    for await (const value of values) {
      chunk += `${JSON.stringify(value)}\n`;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  return Readable.from(text(), { objectMode: false });
}
