import { describe, expect, it } from 'vitest';
import { dayPart } from './greeting';

/** A local time on an arbitrary day. */
const at = (hours: number, minutes: number) => new Date(2025, 2, 14, hours, minutes, 0, 0);

describe('dayPart', () => {
  it('is morning from midnight until 11:59', () => {
    expect(dayPart(at(0, 0))).toBe('morning');
    expect(dayPart(at(11, 59))).toBe('morning');
  });

  it('is afternoon from 12:00 until 17:59', () => {
    expect(dayPart(at(12, 0))).toBe('afternoon');
    expect(dayPart(at(17, 59))).toBe('afternoon');
  });

  it('is evening from 18:00 until midnight', () => {
    expect(dayPart(at(18, 0))).toBe('evening');
    expect(dayPart(at(23, 59))).toBe('evening');
  });
});
