import { describe, expect, it } from 'vitest';
import {
  addMonth,
  daysLeft,
  grantsPlan,
  planChangeType,
  prorationCents,
  prorationDateUsable,
  prorationMoment,
  refundDue,
  toCents,
} from './billing-rules.ts';

describe('addMonth', () => {
  it('keeps the day of the month, or takes the last day of a shorter month', () => {
    expect(addMonth('2026-11-22T10:00:00.000Z')).toBe('2026-12-22T10:00:00.000Z');
    expect(addMonth('2026-12-15T00:00:00.000Z')).toBe('2027-01-15T00:00:00.000Z');
    expect(addMonth('2027-01-31T08:30:00.000Z')).toBe('2027-02-28T08:30:00.000Z');
    expect(addMonth('2028-01-31T08:30:00.000Z')).toBe('2028-02-29T08:30:00.000Z');
    expect(addMonth('2026-03-31T23:59:59.000Z')).toBe('2026-04-30T23:59:59.000Z');
  });
});

describe('prorationCents', () => {
  const period = { periodStart: '2026-11-01T00:00:00.000Z', periodEnd: '2026-12-01T00:00:00.000Z' };
  it('charges the difference for the remaining share of the period', () => {
    expect(prorationCents({ ...period, fromPriceCents: 999, toPriceCents: 1999, now: '2026-11-16T00:00:00.000Z' })).toBe(500);
    expect(prorationCents({ ...period, fromPriceCents: 999, toPriceCents: 1999, now: '2026-11-01T00:00:00.000Z' })).toBe(1000);
  });
  it('credits a downgrade and gives nothing once the period is over', () => {
    expect(prorationCents({ ...period, fromPriceCents: 1999, toPriceCents: 999, now: '2026-11-16T00:00:00.000Z' })).toBe(-500);
    expect(prorationCents({ ...period, fromPriceCents: 999, toPriceCents: 1999, now: '2026-12-01T00:00:00.000Z' })).toBe(0);
  });
});

describe('a plan change preview', () => {
  const period = { periodStart: '2026-11-01T00:00:00.000Z', periodEnd: '2026-12-01T00:00:00.000Z' };
  it('prorates from whole seconds and counts the days left up', () => {
    expect(prorationMoment(new Date('2026-11-16T10:20:30.999Z')).toISOString()).toBe('2026-11-16T10:20:30.000Z');
    expect(daysLeft('2026-11-16T00:00:00.000Z', period.periodEnd)).toBe(15);
    expect(daysLeft('2026-11-16T12:00:00.000Z', period.periodEnd)).toBe(15);
    expect(daysLeft('2026-11-30T23:59:59.000Z', period.periodEnd)).toBe(1);
    expect(daysLeft('2026-12-02T00:00:00.000Z', period.periodEnd)).toBe(0);
  });
  it('takes the previewed moment for 30 minutes, inside the period, never from the future', () => {
    const now = '2026-11-16T10:30:00.000Z';
    expect(prorationDateUsable('2026-11-16T10:00:00.000Z', { ...period, now })).toBe(true);
    expect(prorationDateUsable('2026-11-16T09:59:59.000Z', { ...period, now })).toBe(false);
    expect(prorationDateUsable('2026-11-16T10:30:01.000Z', { ...period, now })).toBe(false);
    expect(prorationDateUsable('2026-10-31T23:59:59.000Z', { ...period, now: '2026-11-01T00:10:00.000Z' })).toBe(false);
    expect(prorationDateUsable('2026-11-01T00:00:00.000Z', { ...period, now: '2026-11-01T00:10:00.000Z' })).toBe(true);
  });
});

describe('refundDue', () => {
  it('refunds within 30 days of the first payment only', () => {
    expect(refundDue('2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')).toBe(true);
    expect(refundDue('2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z')).toBe(true);
    expect(refundDue('2026-11-01T00:00:00.000Z', '2026-12-01T00:00:01.000Z')).toBe(false);
    expect(refundDue(null, '2026-11-02T00:00:00.000Z')).toBe(false);
  });
});

describe('planChangeType', () => {
  it('names a move by price, then by storage', () => {
    expect(planChangeType({ price: 9.99, storageLimit: 100 }, { price: 19.99, storageLimit: 1000 })).toBe('upgrade');
    expect(planChangeType({ price: 19.99, storageLimit: 1000 }, { price: 0, storageLimit: 5 })).toBe('downgrade');
    expect(planChangeType({ price: 5, storageLimit: 100 }, { price: 5, storageLimit: 50 })).toBe('downgrade');
  });
});

describe('money and status', () => {
  it('converts dollars to cents exactly', () => {
    expect(toCents(9.99)).toBe(999);
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0)).toBe(0);
  });
  it('grants the plan while active or past due', () => {
    expect(grantsPlan('active')).toBe(true);
    expect(grantsPlan('past_due')).toBe(true);
    expect(grantsPlan('canceled')).toBe(false);
  });
});
