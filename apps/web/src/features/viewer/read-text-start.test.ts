import { afterEach, describe, expect, it, vi } from 'vitest';
import { readTextStart } from './read-text-start';

function serve(body: Uint8Array<ArrayBuffer>, init: ResponseInit) {
  const fetchMock = vi.fn(async () => new Response(body, init));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('reading the start of a text file', () => {
  it('asks for the first bytes only and reads the whole of a short file', async () => {
    const fetchMock = serve(new TextEncoder().encode('hello'), { status: 200, headers: { 'content-length': '5' } });
    expect(await readTextStart('/x', 8)).toEqual({ text: 'hello', complete: true });
    expect(fetchMock).toHaveBeenCalledWith('/x', expect.objectContaining({ headers: { Range: 'bytes=0-7' } }));
  });

  it('says when the file goes on past the limit', async () => {
    serve(new TextEncoder().encode('abcd'), { status: 206, headers: { 'content-range': 'bytes 0-3/100' } });
    expect(await readTextStart('/x', 4)).toEqual({ text: 'abcd', complete: false });
  });

  it('stops at the limit when the server sends the whole file anyway', async () => {
    serve(new TextEncoder().encode('abcdefgh'), { status: 200, headers: { 'content-length': '8' } });
    expect(await readTextStart('/x', 3)).toEqual({ text: 'abc', complete: false });
  });

  it('leaves out a character cut in two at the limit', async () => {
    // "é" is two bytes: the limit falls between them.
    serve(new TextEncoder().encode('aé'), { status: 206, headers: { 'content-range': 'bytes 0-1/3' } });
    expect(await readTextStart('/x', 2)).toEqual({ text: 'a', complete: false });
  });
});
