import { describe, expect, it } from 'vitest';
import { displayPercent, storageBarClass, storageTone, usagePercent } from './storage-usage';

describe('storage bar', () => {
  it('clamps the percentage to 0..100', () => {
    expect(usagePercent(0, 1000)).toBe(0);
    expect(usagePercent(-5, 1000)).toBe(0);
    expect(usagePercent(250, 1000)).toBe(25);
    expect(usagePercent(2000, 1000)).toBe(100);
    expect(usagePercent(10, 0)).toBe(100);
    expect(usagePercent(Number.NaN, 1000)).toBe(0);
  });

  it('is blue under 75 %, yellow from 75 %, red from 90 %', () => {
    expect(storageTone(0)).toBe('normal');
    expect(storageTone(74.99)).toBe('normal');
    expect(storageTone(75)).toBe('warning');
    expect(storageTone(89.99)).toBe('warning');
    expect(storageTone(90)).toBe('critical');
    expect(storageTone(100)).toBe('critical');
    expect(storageBarClass.normal).toContain('blue');
    expect(storageBarClass.warning).toContain('yellow');
    expect(storageBarClass.critical).toContain('red');
  });

  it('never shows 0 % for a quota with something in it', () => {
    expect(displayPercent(0)).toBe(0);
    expect(displayPercent(0.2)).toBe(1);
    expect(displayPercent(79.9)).toBe(79);
  });
});
