import { describe, expect, it } from 'vitest';
import { naturalSortKey } from './sort-keys.ts';

const utf8 = new TextEncoder();

/** Compares as the databases compare the stored keys: by their UTF-8 bytes. */
function compareBytes(a: string, b: string): number {
  const [x, y] = [utf8.encode(a), utf8.encode(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

const byKey = (names: string[]) => [...names].sort((a, b) => compareBytes(naturalSortKey(a), naturalSortKey(b)));

describe('naturalSortKey', () => {
  it('puts numbers in order of value, not of their first digit', () => {
    expect(byKey(['file 10', 'file 2', 'file 1', 'file 100', 'file 20'])).toEqual(['file 1', 'file 2', 'file 10', 'file 20', 'file 100']);
  });

  it('ignores case, as name comparisons do', () => {
    expect(naturalSortKey('Report.PDF')).toBe(naturalSortKey('report.pdf'));
    expect(byKey(['b', 'A', 'a2', 'B1'])).toEqual(['A', 'a2', 'b', 'B1']);
  });

  it('compares each run of digits on its own', () => {
    expect(byKey(['v1.10.2', 'v1.9.10', 'v1.9.9', 'v10.0.0'])).toEqual(['v1.9.9', 'v1.9.10', 'v1.10.2', 'v10.0.0']);
    expect(byKey(['2024-12-01 photo', '2024-2-15 photo'])).toEqual(['2024-2-15 photo', '2024-12-01 photo']);
  });

  it('orders numbers longer than any fixed width by value', () => {
    expect(byKey(['n 100000000000000000000', 'n 99999999999999999999'])).toEqual(['n 99999999999999999999', 'n 100000000000000000000']);
  });

  it('gives leading zeros no weight, so "a01" and "a1" tie (a listing breaks the tie by id)', () => {
    expect(naturalSortKey('a01')).toBe(naturalSortKey('a1'));
    expect(naturalSortKey('a0')).toBe(naturalSortKey('a000'));
    expect(byKey(['a010', 'a9', 'a0'])).toEqual(['a0', 'a9', 'a010']);
  });

  it('keeps a name without digits as its name key, and puts it before the same text followed by a number', () => {
    expect(naturalSortKey('Äpfel.txt')).toBe('äpfel.txt');
    expect(byKey(['file 1.txt', 'file.txt', 'file'])).toEqual(['file', 'file 1.txt', 'file.txt']);
  });

  it('composes decomposed names first, as name keys do', () => {
    expect(naturalSortKey('A\u0308pfel 2')).toBe(naturalSortKey('äpfel 2'));
  });
});
