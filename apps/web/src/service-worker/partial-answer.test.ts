// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { partialAnswer } from './partial-answer';

const stored = () => new Response('0123456789', { headers: { 'Content-Type': 'text/plain', 'X-CloudVault-Content-Tag': 'v1' } });

describe('partialAnswer', () => {
  it('answers a range, an open range and a suffix from the stored copy as the server would', async () => {
    const middle = await partialAnswer('bytes=2-5', stored());
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(middle.headers.get('content-length')).toBe('4');
    expect(middle.headers.get('content-type')).toBe('text/plain');
    expect(await middle.text()).toBe('2345');
    expect(await (await partialAnswer('bytes=7-', stored())).text()).toBe('789');
    expect(await (await partialAnswer('bytes=-3', stored())).text()).toBe('789');
    // An end past the file is the file's end (pdf.js asks in whole chunks).
    const past = await partialAnswer('bytes=8-100', stored());
    expect([past.headers.get('content-range'), await past.text()]).toEqual(['bytes 8-9/10', '89']);
  });

  it('refuses a range outside the copy or of another form with 416 and the size', async () => {
    for (const range of ['bytes=10-12', 'bytes=5-2', 'items=0-1']) {
      const answer = await partialAnswer(range, stored());
      expect([range, answer.status, answer.headers.get('content-range')]).toEqual([range, 416, 'bytes */10']);
    }
  });

  it('answers several ranges with the whole copy, as the server does', async () => {
    const whole = await partialAnswer('bytes=0-1,4-5', stored());
    expect([whole.status, await whole.text()]).toEqual([200, '0123456789']);
  });
});
