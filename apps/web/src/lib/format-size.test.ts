import { describe, expect, it } from 'vitest';
import { formatBytes } from '@cloudvault/contract/format';
import { formatSize } from './format-size';

const SIZES = [0, 1, 1023, 1024, 1536, 107374182, 1073741824, 5 * 1024 ** 4];

describe('formatSize', () => {
  it('writes English exactly as formatBytes does', () => {
    for (const bytes of SIZES) expect(formatSize(bytes, 'en')).toBe(formatBytes(bytes));
  });

  it('treats what is not a size as zero, like formatBytes', () => {
    for (const bytes of [-5, Number.NaN, null, undefined, 'abc']) expect(formatSize(bytes, 'en')).toBe('0 Bytes');
  });

  it("writes the number and the unit the language's way", () => {
    expect(formatSize(1536, 'de')).toBe('1,5 KB');
    expect(formatSize(1536, 'fr')).toBe('1,5 Ko');
    expect(formatSize(107374182, 'fr')).toBe('102,4 Mo');
    expect(formatSize(0, 'fr')).toBe('0 octets');
    expect(formatSize(1023, 'es')).toBe('1023 bytes');
    expect(formatSize(1536, 'zh')).toBe('1.5 KB');
    expect(formatSize(0, 'zh')).toBe('0 字节');
  });
});
