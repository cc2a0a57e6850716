/**
 * Answers a `Range` request from a stored copy as the server would (206 with Content-Range,
 * 416 when unsatisfiable, several ranges answered whole): a video seeks and pdf.js reads pages by ranges. The body is a slice
 * of the stored response's Blob, which Cache Storage keeps on disk: no file is read whole into
 * memory. (workbox-range-requests does the same; it is not among the web app's dependencies.)
 */
export async function partialAnswer(range: string, stored: Response): Promise<Response> {
  if (range.includes(',')) return stored;
  const body = await stored.blob();
  const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  const size = body.size;
  let start = match?.[1] ? Number(match[1]) : NaN;
  let end = match?.[2] ? Number(match[2]) : NaN;
  if (Number.isNaN(start) && !Number.isNaN(end)) {
    // A suffix: the last `end` bytes.
    start = Math.max(size - end, 0);
    end = size - 1;
  } else if (Number.isNaN(end)) {
    end = size - 1;
  }
  if (!match || Number.isNaN(start) || start > end || start >= size) {
    return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${size}` } });
  }
  end = Math.min(end, size - 1);
  const headers = new Headers(stored.headers);
  headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
  headers.set('Content-Length', String(end - start + 1));
  return new Response(body.slice(start, end + 1), { status: 206, statusText: 'Partial Content', headers });
}
