import { describe, expect, it } from 'vitest';
import type { AuditEntryRow } from '../../db/admin-audit.ts';
import { AppError } from '../../lib/errors.ts';
import { fakeBillingRecords, fakeClock, fakePlans, recordingPlanChanged, subscriptionSnapshot } from './billing.fakes.ts';
import { createComplimentaryService, refuseComplimentary } from './complimentary.service.ts';
import { createPaymentEvents } from './payment-events.ts';
import { createPlanChanges } from './plan-changes.ts';

const DAY = 24 * 60 * 60 * 1000;

function setUp() {
  const clock = fakeClock();
  const { records, state } = fakeBillingRecords(['ann', 'bob']);
  const { reactions, planChanged } = recordingPlanChanged();
  const planChanges = createPlanChanges({
    records,
    plans: fakePlans(),
    clock,
    planChanged,
  });
  const complimentary = createComplimentaryService({ records, planChanges, clock });
  const { applyEvents } = createPaymentEvents({ planChanges, provider: { name: 'stripe' }, log: { warn: () => undefined } });
  const inDays = (days: number) => new Date(clock.now().getTime() + days * DAY).toISOString();
  const grant = (userId: string, planId: 'PRO' | 'PREMIUM', endsAt: string, audit?: AuditEntryRow) =>
    complimentary.grantComplimentary({ userId, planId, endsAt, reason: 'Beta tester', grantedBy: 'operator' }, audit);
  const audit = (action: string) => ({ action }) as unknown as AuditEntryRow;
  return {
    complimentary,
    applyEvents,
    state,
    reactions,
    clock,
    inDays,
    grant,
    audit,
    planOf: (userId: string) => state.plansOfUsers.get(userId),
  };
}

describe('granting a complimentary plan', () => {
  it('moves the user to the plan until its date, never renewing, with the audit entry and planChanged once', async () => {
    const { state, reactions, inDays, grant, audit, planOf } = setUp();
    const granted = await grant('ann', 'PRO', inDays(30), audit('grant_plan'));
    expect(granted).toEqual({
      status: 'active',
      planId: 'PRO',
      cancelAtPeriodEnd: true,
      currentPeriodEnd: inDays(30),
      nextBillingDate: null,
      createdAt: inDays(0),
      complimentary: true,
    });
    expect(planOf('ann')).toBe('PRO');
    expect([...state.subscriptions.values()]).toMatchObject([
      { provider: 'complimentary', grant_reason: 'Beta tester', granted_by: 'operator' },
    ]);
    expect(state.audit).toEqual([audit('grant_plan')]);
    expect(reactions).toEqual(['ann upgrade Pro']);
  });

  it('a second time changes the first grant: the same row, the plan changed only when it differs', async () => {
    const { complimentary, state, reactions, clock, inDays, grant, planOf } = setUp();
    await grant('ann', 'PRO', inDays(30));
    clock.advance(DAY);
    await grant('ann', 'PRO', inDays(60));
    await grant('ann', 'PREMIUM', inDays(60));
    expect(state.subscriptions.size).toBe(1);
    expect(await complimentary.complimentaryPlan('ann')).toMatchObject({
      plan_id: 'PREMIUM',
      current_period_end: inDays(60),
      current_period_start: inDays(-1),
    });
    expect(planOf('ann')).toBe('PREMIUM');
    expect(reactions).toEqual(['ann upgrade Pro', 'ann upgrade Business']);
  });

  it('is refused while the user pays for a plan, leaving nothing written, not even the audit entry', async () => {
    const { applyEvents, state, reactions, inDays, grant, audit, planOf } = setUp();
    const paid = subscriptionSnapshot('ann', inDays(0), { status: 'past_due' });
    await applyEvents([{ id: 'evt_1', type: 'checkout.completed', userId: 'ann', subscription: paid }]);
    await expect(grant('ann', 'PREMIUM', inDays(30), audit('grant_plan'))).rejects.toMatchObject({
      status: 409,
      code: 'PAID_SUBSCRIPTION',
    });
    expect(state.subscriptions.size).toBe(1);
    expect(state.audit).toEqual([]);
    expect(planOf('ann')).toBe('PRO');
    expect(reactions).toEqual(['ann upgrade Pro']);
  });

  it('is given once a paid subscription has ended', async () => {
    const { applyEvents, clock, inDays, grant, planOf } = setUp();
    const ended = subscriptionSnapshot('ann', inDays(0), { status: 'canceled' });
    await applyEvents([{ id: 'evt_1', type: 'subscription.changed', subscription: ended }]);
    clock.advance(1000);
    await grant('ann', 'PRO', inDays(30));
    expect(planOf('ann')).toBe('PRO');
  });
});

describe('ending a complimentary plan', () => {
  it('by an operator: now, to Free, audited, planChanged once; then there is none to end', async () => {
    const { complimentary, state, reactions, clock, inDays, grant, audit, planOf } = setUp();
    await grant('ann', 'PRO', inDays(30));
    clock.advance(DAY);
    expect(await complimentary.endComplimentary('ann', audit('end_plan'))).toBe(true);
    expect(await complimentary.endComplimentary('ann', audit('end_plan'))).toBe(false);
    expect(await complimentary.endComplimentary('bob', audit('end_plan'))).toBe(false);
    expect([...state.subscriptions.values()]).toMatchObject([{ status: 'canceled', current_period_end: clock.iso() }]);
    expect(await complimentary.complimentaryPlan('ann')).toBeUndefined();
    expect(planOf('ann')).toBe('FREE');
    expect(state.audit).toEqual([audit('end_plan')]);
    expect(reactions).toEqual(['ann upgrade Pro', 'ann downgrade Free']);
  });

  it('by the job: those whose date has come, ended at that date, each once however often it runs', async () => {
    const { complimentary, state, reactions, clock, inDays, grant, planOf } = setUp();
    const annEnds = inDays(10);
    await grant('ann', 'PRO', annEnds);
    await grant('bob', 'PREMIUM', inDays(40));
    expect(await complimentary.endExpiredComplimentary()).toBe(0);
    clock.advance(11 * DAY);
    expect(await Promise.all([complimentary.endExpiredComplimentary(), complimentary.endExpiredComplimentary()])).toEqual(
      expect.arrayContaining([1, 0]),
    );
    expect([...state.subscriptions.values()].find((row) => row.user_id === 'ann')).toMatchObject({
      status: 'canceled',
      current_period_end: annEnds,
    });
    expect([planOf('ann'), planOf('bob')]).toEqual(['FREE', 'PREMIUM']);
    expect(reactions).toEqual(['ann upgrade Pro', 'bob upgrade Business', 'ann downgrade Free']);
  });
});

describe('the user of a complimentary plan', () => {
  it('is told there is nothing to pay, change or cancel until its date; a paid or no subscription is let through', async () => {
    const { complimentary, applyEvents, inDays, grant } = setUp();
    await grant('ann', 'PRO', '2026-12-24T00:00:00.000Z');
    let refusal: unknown;
    try {
      refuseComplimentary(await complimentary.complimentaryPlan('ann'), fakePlans());
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({
      status: 409,
      code: 'COMPLIMENTARY_PLAN',
      message: 'Your Pro plan is complimentary until 2026-12-24, so there is nothing to pay, change or cancel yet.',
    });
    await applyEvents([{ id: 'evt_1', type: 'checkout.completed', userId: 'bob', subscription: subscriptionSnapshot('bob', inDays(0)) }]);
    expect(await complimentary.complimentaryPlan('bob')).toBeUndefined();
    expect(() => refuseComplimentary(undefined, fakePlans())).not.toThrow();
  });
});
