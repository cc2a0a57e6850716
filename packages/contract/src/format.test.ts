import { describe, expect, it } from 'vitest';
import { formatBytes } from './format.ts';

describe('formatBytes', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [107374182, '102.4 MB'],
    [524288000, '500 MB'],
    [1073741824, '1 GB'],
    [107374182400, '100 GB'],
    [1099511627776, '1 TB'],
    [1234567, '1.18 MB'],
    [5 * 1024 ** 5, '5120 TB'],
  ])('formats %d as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it.each([[undefined], [null], [Number.NaN], [-5], ['abc'], [Number.POSITIVE_INFINITY]])(
    "gives '0 Bytes' for %s",
    (value) => {
      expect(formatBytes(value as number)).toBe('0 Bytes');
    },
  );

  it('accepts sizes sent as strings', () => {
    expect(formatBytes('2048')).toBe('2 KB');
  });
});
