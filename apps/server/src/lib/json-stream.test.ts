import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { jsonObjectStream } from './json-stream.ts';

async function* items<T>(...values: T[]): AsyncGenerator<T> {
  for (const value of values) yield value;
}

describe('jsonObjectStream', () => {
  it('writes each array from its items, in order, as JSON that parses to the same object', async () => {
    const many = Array.from({ length: 5000 }, (_, index) => ({ id: `x${index}`, name: `名前 "${index}"` }));
    const written = await text(jsonObjectStream({ folders: items(...many), files: items() }));
    expect(JSON.parse(written)).toEqual({ folders: many, files: [] });
    expect(await text(jsonObjectStream({}))).toBe('{}');
  });
});
