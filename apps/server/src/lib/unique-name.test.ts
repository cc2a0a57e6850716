import { describe, expect, it } from 'vitest';
import { numberedName } from './unique-name.ts';

describe('numberedName', () => {
  it.each([
    ['photo.jpg', 1, 'photo (1).jpg'],
    ['archive.tar.gz', 2, 'archive.tar (2).gz'],
    ['README', 1, 'README (1)'],
    ['.env', 1, '.env (1)'],
    ['trailing.', 3, 'trailing. (3)'],
  ])('numbers %s as clash %d → %s', (name, n, expected) => {
    expect(numberedName(name, n)).toBe(expected);
  });
});
