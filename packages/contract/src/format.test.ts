import { describe, expect, it } from 'vitest';
import { formatBytes, formatBytesIn } from './format.ts';

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

  it.each([[undefined], [null], [Number.NaN], [-5], ['abc'], [Number.POSITIVE_INFINITY]])("gives '0 Bytes' for %s", (value) => {
    expect(formatBytes(value as number)).toBe('0 Bytes');
  });

  it('accepts sizes sent as strings', () => {
    expect(formatBytes('2048')).toBe('2 KB');
  });
});

describe('formatBytesIn', () => {
  const sizes = [0, 1, 1023, 1024, 1536, 107374182, 1073741824, 5 * 1024 ** 4];

  it('writes English exactly as formatBytes does', () => {
    for (const bytes of sizes) expect(formatBytesIn(bytes, 'en')).toBe(formatBytes(bytes));
  });

  it('treats what is not a size as zero, like formatBytes', () => {
    for (const bytes of [-5, Number.NaN, null, undefined, 'abc']) expect(formatBytesIn(bytes, 'en')).toBe('0 Bytes');
  });

  it("writes the number and the unit the language's way", () => {
    expect(formatBytesIn(1536, 'de')).toBe('1,5 KB');
    expect(formatBytesIn(1536, 'fr')).toBe('1,5 Ko');
    expect(formatBytesIn(107374182, 'fr')).toBe('102,4 Mo');
    expect(formatBytesIn(0, 'fr')).toBe('0 octets');
    expect(formatBytesIn(1023, 'es')).toBe('1023 bytes');
    expect(formatBytesIn(1536, 'zh')).toBe('1.5 KB');
    expect(formatBytesIn(0, 'zh')).toBe('0 字节');
  });
});
