import { describe, expect, it } from 'vitest';
import { nextCronTime } from './cron-schedule.ts';

const next = (cron: string, after: string) => nextCronTime(cron, new Date(after)).toISOString();

describe('nextCronTime', () => {
  it('names the next due time strictly after the given one, in UTC', () => {
    expect(next('* * * * *', '2026-11-24T10:02:30.500Z')).toBe('2026-11-24T10:03:00.000Z');
    expect(next('*/5 * * * *', '2026-11-24T10:02:30Z')).toBe('2026-11-24T10:05:00.000Z');
    expect(next('5 * * * *', '2026-11-24T10:05:00Z')).toBe('2026-11-24T11:05:00.000Z');
    expect(next('45 * * * *', '2026-12-31T23:50:00Z')).toBe('2027-01-01T00:45:00.000Z');
    expect(next('0 0 1 1 *', '2026-06-01T00:00:00Z')).toBe('2027-01-01T00:00:00.000Z');
  });

  it('takes a leading seconds field', () => {
    expect(next('* * * * * *', '2026-11-24T10:02:30.500Z')).toBe('2026-11-24T10:02:31.000Z');
    expect(next('*/20 * * * * *', '2026-11-24T10:02:41Z')).toBe('2026-11-24T10:03:00.000Z');
  });

  it('reads lists, ranges and steps from a start', () => {
    expect(next('10,40 * * * *', '2026-11-24T10:15:00Z')).toBe('2026-11-24T10:40:00.000Z');
    expect(next('0 9-17/4 * * *', '2026-11-24T13:00:00Z')).toBe('2026-11-24T17:00:00.000Z');
  });

  it('counts day of week 0 and 7 as Sunday, and either day field when both are restricted', () => {
    // 2026-11-24 is a Tuesday.
    expect(next('0 0 * * 7', '2026-11-24T12:00:00Z')).toBe('2026-11-29T00:00:00.000Z');
    expect(next('0 0 * * 0', '2026-11-24T12:00:00Z')).toBe('2026-11-29T00:00:00.000Z');
    expect(next('0 0 28 * 5', '2026-11-24T12:00:00Z')).toBe('2026-11-27T00:00:00.000Z');
    expect(next('0 0 25 * *', '2026-11-24T12:00:00Z')).toBe('2026-11-25T00:00:00.000Z');
  });

  it('finds a date that exists only in leap years', () => {
    expect(next('0 0 29 2 *', '2026-03-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
  });

  it('refuses what it cannot read, and a date that never comes', () => {
    for (const cron of ['* * * *', '60 * * * *', '*/0 * * * *', '0 0 1 1 * 2027 extra']) {
      expect(() => next(cron, '2026-11-24T00:00:00Z'), cron).toThrow();
    }
    expect(() => next('0 0 31 2 *', '2026-11-24T00:00:00Z')).toThrow();
  });
});
