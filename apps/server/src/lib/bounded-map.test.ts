import { describe, expect, it } from 'vitest';
import { setBounded } from './bounded-map.ts';

describe('setBounded', () => {
  it('keeps the newest entries up to the capacity, dropping the oldest first', () => {
    const map = new Map<string, number>();
    for (const [index, key] of ['a', 'b', 'c', 'd'].entries()) setBounded(map, key, index, 3);
    expect([...map]).toEqual([
      ['b', 1],
      ['c', 2],
      ['d', 3],
    ]);
  });

  it('counts a key set again as new when the caller deleted it first', () => {
    const map = new Map([
      ['a', 0],
      ['b', 1],
    ]);
    map.delete('a');
    setBounded(map, 'a', 0, 2);
    setBounded(map, 'c', 2, 2);
    expect([...map.keys()]).toEqual(['a', 'c']);
  });
});
