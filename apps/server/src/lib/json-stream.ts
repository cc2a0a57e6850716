import { Readable } from 'node:stream';

/**
 * A JSON object written as it is read: `{"a":[…],"b":[…]}`, each array's items taken from
 * an async iterable (pages of rows) and stringified one at a time. The answer is whole, as
 * the contract says, without ever being held whole. Items must already be exactly the
 * contract's shape (presenters): this bypasses the route's response serializer.
 */
export function jsonObjectStream(arrays: Record<string, AsyncIterable<unknown>>): Readable {
  async function* text(): AsyncGenerator<string> {
    let separator = '{';
    for (const [key, items] of Object.entries(arrays)) {
      yield `${separator}${JSON.stringify(key)}:[`;
      let comma = '';
      // A page's items as one string: one chunk per page rather than per item.
      let chunk = '';
      for await (const item of items) {
        chunk += comma + JSON.stringify(item);
        comma = ',';
        if (chunk.length >= 64 * 1024) {
          yield chunk;
          chunk = '';
        }
      }
      yield `${chunk}]`;
      separator = ',';
    }
    yield separator === '{' ? '{}' : '}';
  }
  return Readable.from(text(), { objectMode: false });
}
