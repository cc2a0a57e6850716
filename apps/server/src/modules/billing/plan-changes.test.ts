import { describe, expect, it } from 'vitest';
import type { SubscriptionRow } from './billing.repository.ts';
import { fakeBillingRecords, fakeClock, fakePlans, recordingPlanChanged } from './billing.fakes.ts';
import { createPlanChanges } from './plan-changes.ts';

function setUp() {
  const clock = fakeClock();
  const { records, state } = fakeBillingRecords(['ann']);
  const { reactions, planChanged } = recordingPlanChanged();
  const planChanges = createPlanChanges({
    records,
    plans: fakePlans(),
    clock,
    planChanged,
  });
  const subscription = (changes: Partial<SubscriptionRow>): SubscriptionRow => ({
    provider_subscription_id: 'sub_1',
    user_id: 'ann',
    provider: 'stripe',
    customer_id: 'cus_ann',
    plan_id: 'PRO',
    status: 'active',
    cancel_at_period_end: 0,
    current_period_start: clock.iso(),
    current_period_end: '2026-12-01T12:00:00.000Z',
    first_paid_at: null,
    created_at: clock.iso(),
    updated_at: clock.iso(),
    ...changes,
  });
  /** Writes the rows in one transaction, then lets ann's plan follow them. */
  const follow = (...rows: SubscriptionRow[]) =>
    planChanges.inTransaction(async (transaction) => {
      for (const row of rows) await transaction.records.saveSubscription(row);
      await transaction.followSubscription('ann');
    });
  return { planChanges, state, reactions, subscription, follow, clock };
}

describe('which plan is in force', () => {
  it('is the plan of the newest subscription while it is active or past due, else Free', async () => {
    const { state, subscription, follow } = setUp();
    for (const [status, plan] of [
      ['active', 'PRO'],
      ['past_due', 'PRO'],
      ['incomplete', 'FREE'],
      ['unpaid', 'FREE'],
      ['active', 'PRO'],
      ['canceled', 'FREE'],
    ] as const) {
      await follow(subscription({ status }));
      expect(state.plansOfUsers.get('ann'), status).toBe(plan);
    }
  });

  it('follows the newest subscription, not an older one still active', async () => {
    const { state, subscription, follow, clock } = setUp();
    const older = subscription({ provider_subscription_id: 'sub_old', plan_id: 'PREMIUM' });
    clock.advance(1000);
    await follow(older, subscription({ provider_subscription_id: 'sub_new', plan_id: 'PRO', created_at: clock.iso() }));
    expect(state.plansOfUsers.get('ann')).toBe('PRO');
  });
});

describe('planChanged', () => {
  it('is told once per change, after the transaction, named by price and then storage', async () => {
    const { state, reactions, subscription, follow } = setUp();
    await follow(subscription({ plan_id: 'PREMIUM' }));
    await follow(subscription({ plan_id: 'PRO' }));
    await follow(subscription({ status: 'canceled' }));
    expect(reactions).toEqual(['ann upgrade Business', 'ann downgrade Pro', 'ann downgrade Free']);
    expect(state.history.map((entry) => `${entry.type} ${entry.plan_id}`)).toEqual(['upgrade PREMIUM', 'downgrade PRO', 'downgrade FREE']);
  });

  it('is not told when the plan stays as it was, and writes no history', async () => {
    const { state, reactions, subscription, follow } = setUp();
    await follow(subscription({}));
    await follow(subscription({ status: 'past_due' }));
    await follow(subscription({ cancel_at_period_end: 1 }));
    expect(reactions).toEqual(['ann upgrade Pro']);
    expect(state.history).toHaveLength(1);
  });

  it('is not told when the transaction fails after the plan moved: nothing of it stays', async () => {
    const { planChanges, state, reactions, subscription } = setUp();
    const failing = planChanges.inTransaction(async (transaction) => {
      await transaction.records.saveSubscription(subscription({}));
      await transaction.followSubscription('ann');
      throw new Error('the commit failed');
    });
    await expect(failing).rejects.toThrow('the commit failed');
    expect(reactions).toEqual([]);
    expect(state.plansOfUsers.get('ann')).toBe('FREE');
    expect(state.history).toEqual([]);
  });
});
