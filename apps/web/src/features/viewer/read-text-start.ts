/**
 * Reads at most `limit` bytes from the start of `url` as UTF-8: a Range request, and the
 * body read only that far even when the server answers with the whole file, so a large
 * log never lands in memory. `complete` says whether the text is the whole file.
 */
export async function readTextStart(url: string, limit: number, signal?: AbortSignal): Promise<{ text: string; complete: boolean }> {
  const response = await fetch(url, { headers: { Range: `bytes=0-${limit - 1}` }, signal });
  if (!response.ok) throw new Error(`The file could not be read (${response.status})`);
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let read = 0;
  let complete = true;
  const reader = response.body?.getReader();
  if (!reader) return { text: '', complete };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = limit - read;
    if (value.byteLength >= room) {
      text += decoder.decode(value.subarray(0, room), { stream: true });
      read = limit;
      break;
    }
    text += decoder.decode(value, { stream: true });
    read += value.byteLength;
  }
  // A partial answer, or a whole one cut short here: more of the file exists beyond the limit.
  const total = totalSize(response);
  if (read >= limit && (total === null || total > limit)) complete = false;
  await reader.cancel().catch(() => {});
  // A character cut at the limit is left out rather than shown as a replacement mark.
  return { text: complete ? text + decoder.decode() : text, complete };
}

/** The whole file's size from Content-Range (206) or Content-Length (200); null when unknown. */
function totalSize(response: Response): number | null {
  const range = response.headers.get('content-range');
  if (range) {
    const total = Number(range.split('/')[1]);
    return Number.isFinite(total) ? total : null;
  }
  const length = Number(response.headers.get('content-length'));
  return response.status === 200 && Number.isFinite(length) && length > 0 ? length : null;
}
