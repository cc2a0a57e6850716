import { describe, expect, it } from 'vitest';
import { formatChange, formatMoney, revenueTrend, storageGrowth, trendDirection } from './figures';

const month = (month: string, net: number) => ({ month, invoiced: net, refunded: 0, net });

describe('the overview figures', () => {
  it('show money in dollars, cents only when there are any', () => {
    expect(formatMoney(120, 'en')).toBe('$120');
    expect(formatMoney(1234.5, 'en')).toBe('$1,234.50');
    expect(formatMoney(0, 'en')).toBe('$0');
    expect(formatMoney(9.99, 'de')).toBe('9,99\u00a0$');
  });

  it('compare the last complete month with the one before, not the running month', () => {
    const trend = revenueTrend([month('2026-09', 10), month('2026-10', 100), month('2026-11', 125), month('2026-12', 5)]);
    expect(trend).toEqual({ month: '2026-11', net: 125, previousNet: 100, change: 0.25 });
  });

  it('have no ratio after a month without revenue, and no trend without two complete months', () => {
    expect(revenueTrend([month('2026-10', 0), month('2026-11', 50), month('2026-12', 5)])?.change).toBeNull();
    expect(revenueTrend([month('2026-11', 50), month('2026-12', 5)])).toBeNull();
    expect(revenueTrend([])).toBeNull();
  });

  it('read a fall below zero as a fall (refunds larger than invoices)', () => {
    const trend = revenueTrend([month('2026-10', 40), month('2026-11', -10), month('2026-12', 0)]);
    expect(trend?.change).toBe(-1.25);
    expect(trendDirection(trend?.change ?? null)).toBe('down');
  });

  it('write changes with their sign', () => {
    expect(formatChange(0.25, 'en')).toBe('+25%');
    expect(formatChange(-0.0333, 'en')).toBe('-3.3%');
    expect(formatChange(0, 'en')).toBe('0%');
    expect(trendDirection(0)).toBe('flat');
    expect(trendDirection(null)).toBe('flat');
    expect(trendDirection(0.1)).toBe('up');
  });

  it('measure storage growth from the oldest snapshot to the newest', () => {
    expect(
      storageGrowth([
        { day: '2026-11-01', bytes: 1000 },
        { day: '2026-11-15', bytes: 900 },
        { day: '2026-11-24', bytes: 4000 },
      ]),
    ).toEqual({ bytes: 3000, days: 23 });
    expect(storageGrowth([{ day: '2026-11-24', bytes: 4000 }])).toBeNull();
    expect(storageGrowth([])).toBeNull();
  });
});
