import type { HttpResponse } from 'tus-js-client';
import { describe, expect, it } from 'vitest';
import { retriesAfter } from './tus-upload';

const answer = (status: number, body = ''): HttpResponse =>
  ({ getStatus: () => status, getBody: () => body, getHeader: () => undefined, getUnderlyingObject: () => null }) as HttpResponse;

describe('retriesAfter', () => {
  it('repeats what tus asks to repeat (a lost connection, 5xx, 409 and 423: ask the offset again), never a refusal', () => {
    expect([null, answer(0), answer(503), answer(409), answer(423)].map(retriesAfter)).toEqual([true, true, true, true, true]);
    expect([answer(413), answer(507), answer(404)].map(retriesAfter)).toEqual([false, false, false]);
  });

  it('does not repeat a creation refused because the folder holds the name: the person is asked instead', () => {
    expect(retriesAfter(answer(409, JSON.stringify({ error: 'A file named "a.txt" already exists there', code: 'NAME_TAKEN' })))).toBe(
      false,
    );
  });
});
