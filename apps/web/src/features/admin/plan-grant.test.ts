import { describe, expect, it } from 'vitest';
import { confirmsEmail, defaultGrantDay, firstGrantableDay, grantEndsAt, isLaterDay, utcDay } from './plan-grant';

describe('granting a plan by hand', () => {
  it('ends at the close of the chosen day in UTC', () => {
    expect(grantEndsAt('2026-12-31')).toBe('2026-12-31T23:59:59.000Z');
  });

  it('accepts only a real day after today', () => {
    expect(isLaterDay('2026-11-25', '2026-11-24')).toBe(true);
    expect(isLaterDay('2026-11-24', '2026-11-24')).toBe(false);
    expect(isLaterDay('2025-01-01', '2026-11-24')).toBe(false);
    expect(isLaterDay('', '2026-11-24')).toBe(false);
    expect(isLaterDay('2026-13-45', '2026-11-24')).toBe(false);
  });

  it('offers a month from today, in UTC', () => {
    const now = new Date('2026-11-24T23:30:00Z');
    expect(utcDay(now)).toBe('2026-11-24');
    expect(defaultGrantDay(now)).toBe('2026-12-24');
    expect(firstGrantableDay(now)).toBe('2026-11-25');
    expect(isLaterDay(firstGrantableDay(now), utcDay(now))).toBe(true);
  });
});

describe('confirming a deletion', () => {
  it('takes the address typed back whatever its case and outer spaces', () => {
    expect(confirmsEmail(' Ada@Example.com ', 'ada@example.com')).toBe(true);
    expect(confirmsEmail('ada@example.co', 'ada@example.com')).toBe(false);
    expect(confirmsEmail('', 'ada@example.com')).toBe(false);
  });
});
