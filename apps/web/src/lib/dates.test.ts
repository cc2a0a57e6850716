import { describe, expect, it } from 'vitest';
import { formatDay } from './dates';

describe('formatDay', () => {
  it('shows a day', () => {
    expect(formatDay('2026-03-05T12:00:00.000Z', 'en')).toBe('Mar 5, 2026');
  });
});
