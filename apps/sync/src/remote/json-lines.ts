/**
 * Reads an `application/x-ndjson` body one JSON value at a time as it streams, so a listing of
 * a large tree is never held whole as text.
 */
export async function* jsonLines(body: ReadableStream<Uint8Array> | null): AsyncGenerator<unknown> {
  if (body === null) return;
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of body) {
    pending += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (line !== '') yield JSON.parse(line);
    }
  }
  pending += decoder.decode();
  if (pending.trim() !== '') yield JSON.parse(pending);
}
