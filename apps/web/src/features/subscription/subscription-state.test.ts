import { describe, expect, it } from 'vitest';
import {
  billingTone,
  canCancel,
  canUpgradeFromOverview,
  changesAtOnce,
  endsWithPeriod,
  isComplimentary,
  statusLabel,
} from './subscription-state';

describe('statusLabel', () => {
  it('names active, past due and canceled subscriptions, and anything else Free', () => {
    expect(statusLabel({ status: 'active' })).toBe('active');
    expect(statusLabel({ status: 'past_due' })).toBe('pastDue');
    expect(statusLabel({ status: 'canceled' })).toBe('canceled');
    expect(statusLabel(null)).toBe('free');
    expect(statusLabel(undefined)).toBe('free');
    expect(statusLabel({ status: 'incomplete' })).toBe('pastDue');
    expect(statusLabel({ status: 'unpaid' })).toBe('pastDue');
    expect(statusLabel({ status: 'trialing' as 'active' })).toBe('free');
  });
});

describe('buttons of the Overview', () => {
  it('offers Cancel only for a subscription that is not canceled and not already ending', () => {
    expect(canCancel({ status: 'active', cancelAtPeriodEnd: false })).toBe(true);
    expect(canCancel({ status: 'past_due', cancelAtPeriodEnd: false })).toBe(true);
    expect(canCancel({ status: 'active', cancelAtPeriodEnd: true })).toBe(false);
    expect(canCancel({ status: 'canceled', cancelAtPeriodEnd: false })).toBe(false);
    expect(canCancel({ status: 'unpaid', cancelAtPeriodEnd: false })).toBe(false);
    expect(canCancel({ status: 'incomplete', cancelAtPeriodEnd: false })).toBe(false);
    expect(canCancel(null)).toBe(false);
  });

  it('offers Upgrade Plan without a subscription or with a canceled one', () => {
    expect(canUpgradeFromOverview(null)).toBe(true);
    expect(canUpgradeFromOverview({ status: 'canceled' })).toBe(true);
    expect(canUpgradeFromOverview({ status: 'active' })).toBe(false);
    expect(canUpgradeFromOverview({ status: 'past_due' })).toBe(false);
    expect(canUpgradeFromOverview({ status: 'unpaid' })).toBe(true);
    expect(canUpgradeFromOverview({ status: 'incomplete' })).toBe(true);
  });

  it('shows the ending notice only while a subscription set to end still runs', () => {
    expect(endsWithPeriod({ status: 'active', cancelAtPeriodEnd: true })).toBe(true);
    expect(endsWithPeriod({ status: 'canceled', cancelAtPeriodEnd: true })).toBe(false);
    expect(endsWithPeriod({ status: 'active', cancelAtPeriodEnd: false })).toBe(false);
    expect(endsWithPeriod(null)).toBe(false);
  });

  it('gives a plan granted by hand its own notice instead of the ending one, until it has ended', () => {
    const granted = { status: 'active', cancelAtPeriodEnd: true, complimentary: true } as const;
    expect(isComplimentary(granted)).toBe(true);
    expect(endsWithPeriod(granted)).toBe(false);
    expect(canCancel(granted)).toBe(false);
    expect(isComplimentary({ ...granted, status: 'canceled' })).toBe(false);
    expect(isComplimentary({ status: 'active', complimentary: false })).toBe(false);
    expect(isComplimentary({ status: 'active' })).toBe(false);
    expect(isComplimentary(null)).toBe(false);
  });
});

describe('changesAtOnce', () => {
  const paid = (status: 'active' | 'past_due' | 'canceled', complimentary = false) => ({
    plan: 'PRO' as const,
    subscription: { status, complimentary },
  });
  it('asks for a confirmation only for a move between paid plans of a paid subscription in force', () => {
    expect(changesAtOnce(paid('active'), 'PREMIUM')).toBe(true);
    expect(changesAtOnce(paid('past_due'), 'PREMIUM')).toBe(true);
    expect(changesAtOnce({ plan: 'PREMIUM', subscription: { status: 'active' } }, 'PRO')).toBe(true);
    expect(changesAtOnce(paid('active'), 'PRO')).toBe(false);
    expect(changesAtOnce(paid('active'), 'FREE')).toBe(false);
    expect(changesAtOnce(paid('canceled'), 'PREMIUM')).toBe(false);
    expect(changesAtOnce(paid('active', true), 'PREMIUM')).toBe(false);
    expect(changesAtOnce({ plan: 'FREE', subscription: null }, 'PRO')).toBe(false);
    expect(changesAtOnce(undefined, 'PRO')).toBe(false);
  });
});

describe('billingTone', () => {
  it('is green for paid, yellow for pending and red for anything else', () => {
    expect(billingTone('paid')).toBe('success');
    expect(billingTone('pending')).toBe('warning');
    expect(billingTone('failed')).toBe('danger');
    expect(billingTone('void')).toBe('danger');
  });
});
