import { describe, expect, it } from 'vitest';
import { formatDay, formatMoment } from './dates';

describe('formatDay', () => {
  it('shows a day', () => {
    expect(formatDay('2026-03-05T12:00:00.000Z', 'en')).toBe('Mar 5, 2026');
  });
});

describe('formatMoment', () => {
  it('shows a day and its time', () => {
    expect(formatMoment('2026-03-05T12:00:00.000Z', 'en')).toMatch(/^Mar 5, 2026, \d{2}:00 (AM|PM)$/);
  });
});
