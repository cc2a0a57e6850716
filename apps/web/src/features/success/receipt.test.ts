import { describe, expect, it } from 'vitest';
import type { BillingHistoryItem } from '@cloudvault/contract/subscriptions';
import { receiptOf, storageLimitText, welcomePlanName } from './receipt';

const item = (overrides: Partial<BillingHistoryItem> = {}): BillingHistoryItem => ({
  id: 'bh_1',
  invoiceId: 'in_local_0123456789abcdef',
  amount: 9.99,
  currency: 'usd',
  date: '2026-03-05T10:00:00.000Z',
  status: 'paid',
  invoiceUrl: 'http://localhost/api/payments/local/invoices/in_local_0123456789abcdef',
  ...overrides,
});

describe('receiptOf', () => {
  it('shows the newest entry: last 8 characters of the invoice id, amount with 2 decimals and upper-case currency', () => {
    const receipt = receiptOf([item(), item({ invoiceId: 'in_older_entry', amount: 1 })]);
    expect(receipt).toEqual({
      invoiceNumber: '89abcdef',
      amount: '9.99 USD',
      date: '2026-03-05T10:00:00.000Z',
      invoiceUrl: 'http://localhost/api/payments/local/invoices/in_local_0123456789abcdef',
    });
  });

  it('keeps a short invoice id whole and pads whole amounts', () => {
    expect(receiptOf([item({ invoiceId: 'in_42', amount: 20, currency: 'eur' })])).toMatchObject({
      invoiceNumber: 'in_42',
      amount: '20.00 EUR',
    });
  });

  it('has no invoice link without an invoiceUrl, and no receipt without history', () => {
    expect(receiptOf([item({ invoiceUrl: null })])?.invoiceUrl).toBeNull();
    expect(receiptOf([item({ invoiceUrl: '' })])?.invoiceUrl).toBeNull();
    expect(receiptOf([])).toBeNull();
  });
});

describe('welcome details', () => {
  it('names the plan, or leaves the fallback to the screen', () => {
    expect(welcomePlanName({ name: 'Pro' })).toBe('Pro');
    expect(welcomePlanName({ name: '' })).toBeNull();
    expect(welcomePlanName(undefined)).toBeNull();
  });

  it('shows the storage limit, or leaves the fallback to the screen', () => {
    expect(storageLimitText({ storageFormatted: '100 GB' })).toBe('100 GB');
    expect(storageLimitText({})).toBeNull();
  });
});
