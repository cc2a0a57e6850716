import { describe, expect, it } from 'vitest';
import { addMonth } from '../../modules/billing/billing-rules.ts';
import { periodEndEventId, periodsOwed, RENEWAL_CLAIM_MS, renewalClaimExpiry, renewalInvoiceId } from './local-renewals.ts';

describe('renewalInvoiceId', () => {
  it('names one invoice per subscription and period, usable in an invoice URL', () => {
    const id = renewalInvoiceId('sub_local_AbC-9_x', '2026-02-05T10:00:00.000Z');
    expect(id).toBe('in_local_AbC-9_x_20260205T100000000Z');
    expect(id).toMatch(/^[A-Za-z0-9_-]{1,128}$/);
    expect(renewalInvoiceId('sub_local_AbC-9_x', '2026-02-05T10:00:00.000Z')).toBe(id);
    expect(renewalInvoiceId('sub_local_AbC-9_x', '2026-03-05T10:00:00.000Z')).not.toBe(id);
    expect(renewalInvoiceId('sub_local_other', '2026-02-05T10:00:00.000Z')).not.toBe(id);
  });

  it('names the end of a subscription once', () => {
    expect(periodEndEventId('sub_local_AbC')).toBe('evt_local_end_AbC');
  });
});

describe('periodsOwed', () => {
  it('owes nothing before the period ends, one period at its end, and each period missed', () => {
    expect(periodsOwed('2026-02-05T10:00:00.000Z', '2026-02-05T09:59:59.999Z', addMonth)).toEqual([]);
    expect(periodsOwed('2026-02-05T10:00:00.000Z', '2026-02-05T10:00:00.000Z', addMonth)).toEqual([
      { start: '2026-02-05T10:00:00.000Z', end: '2026-03-05T10:00:00.000Z' },
    ]);
    expect(periodsOwed('2026-01-31T10:00:00.000Z', '2026-03-30T00:00:00.000Z', addMonth)).toEqual([
      { start: '2026-01-31T10:00:00.000Z', end: '2026-02-28T10:00:00.000Z' },
      { start: '2026-02-28T10:00:00.000Z', end: '2026-03-28T10:00:00.000Z' },
      { start: '2026-03-28T10:00:00.000Z', end: '2026-04-28T10:00:00.000Z' },
    ]);
  });
});

describe('renewalClaimExpiry', () => {
  it('holds a claim for ten minutes from the run that took it', () => {
    expect(RENEWAL_CLAIM_MS).toBe(10 * 60 * 1000);
    expect(renewalClaimExpiry('2026-02-05T10:00:00.000Z')).toBe('2026-02-05T10:10:00.000Z');
  });
});
