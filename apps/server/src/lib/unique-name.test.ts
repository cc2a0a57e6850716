import { describe, expect, it } from 'vitest';
import { firstFreeName, numberedName } from './unique-name.ts';

describe('numberedName', () => {
  it.each([
    ['photo.jpg', 1, 'photo (1).jpg'],
    ['archive.tar.gz', 2, 'archive.tar (2).gz'],
    ['README', 1, 'README (1)'],
    ['.env', 1, '.env (1)'],
    ['trailing.', 3, 'trailing. (3)'],
    // A name that is already numbered is numbered again, never counted on: "a (1).txt" may be a real name.
    ['a (1).txt', 1, 'a (1) (1).txt'],
  ])('numbers %s as clash %d → %s', (name, n, expected) => {
    expect(numberedName(name, n)).toBe(expected);
  });
});

describe('firstFreeName', () => {
  it('tries the name, then "(1)", "(2)"… and answers the first one taken', async () => {
    const taken = new Set(['a.txt', 'a (1).txt']);
    const tried: string[] = [];
    const name = await firstFreeName('a.txt', async (candidate) => {
      tried.push(candidate);
      return !taken.has(candidate);
    });
    expect([name, tried]).toEqual(['a (2).txt', ['a.txt', 'a (1).txt', 'a (2).txt']]);
  });
});
