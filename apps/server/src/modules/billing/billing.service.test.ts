import { describe, expect, it } from 'vitest';
import type { PaymentEvent } from '../../adapters/payments/payment-provider.ts';
import { fakeBillingRecords, fakeClock, fakePlans, fakeProvider, recordingPlanChanged } from './billing.fakes.ts';
import { createBillingService } from './billing.service.ts';

const DAY = 24 * 60 * 60 * 1000;

/** The service over fakes of its narrow dependencies; ann and bob are on Free with no customer yet. */
function setUp() {
  const clock = fakeClock();
  const { records, state } = fakeBillingRecords(['ann', 'bob']);
  const provider = fakeProvider(clock);
  const { reactions, planChanged } = recordingPlanChanged();
  const logged: string[] = [];
  const renewals: PaymentEvent[] = [];
  const billing = createBillingService({
    billing: records,
    provider,
    plans: fakePlans(),
    clock,
    publicUrl: 'https://drive.example',
    storageUsed: async () => 1234,
    customerDetails: async (userId) => ({ email: `${userId}@example.com`, name: userId }),
    shareCounts: async () => ({ shared: 2, downloads: 7 }),
    log: { error: (_details, message) => logged.push(message), warn: (_details, message) => logged.push(message) },
    planChanged,
    dueRenewals: async () => renewals.splice(0),
  });
  const subscribe = (userId: string, planId: 'PRO' | 'PREMIUM' = 'PRO') => billing.applyEvents(provider.checkoutEvents(userId, planId));
  const grant = (userId: string) =>
    billing.grantComplimentary({ userId, planId: 'PRO', endsAt: '2026-12-24T00:00:00.000Z', reason: 'Beta', grantedBy: null });
  const planOf = (userId: string) => state.plansOfUsers.get(userId);
  const amounts = (userId: string) =>
    [...state.invoices.values()].filter((invoice) => invoice.user_id === userId).map((invoice) => invoice.amount_cents);
  return { billing, clock, state, provider, reactions, logged, renewals, subscribe, grant, planOf, amounts };
}

describe('a checkout', () => {
  it('is refused for the Free plan or one not in the catalogue, without asking the provider', async () => {
    const { billing, provider } = setUp();
    for (const planId of ['FREE', 'GOLD']) {
      await expect(billing.createCheckout('ann', planId as 'FREE')).rejects.toMatchObject({ status: 400, code: 'PLAN_NOT_PURCHASABLE' });
    }
    expect(provider.requests).toEqual([]);
  });

  it("opens the provider's checkout for a paid plan, making the customer once", async () => {
    const { billing, provider } = setUp();
    expect(await billing.createCheckout('ann', 'PRO')).toBe('https://pay.example/cs_ann');
    await billing.createCheckout('ann', 'PREMIUM');
    expect(provider.requests).toEqual(['createCustomer ann', 'createCheckoutSession cus_ann PRO', 'createCheckoutSession cus_ann PREMIUM']);
  });

  it('is refused while a paid plan is active or past due, and opened again once it is unpaid', async () => {
    const { billing, provider, subscribe } = setUp();
    await subscribe('ann');
    await expect(billing.createCheckout('ann', 'PREMIUM')).rejects.toMatchObject({
      status: 409,
      code: 'ALREADY_SUBSCRIBED',
      message: 'You already have the Pro plan. Change plans from Subscription & Billing.',
    });
    await billing.applyEvents(provider.reportChange('sub_ann', { status: 'past_due' }));
    await expect(billing.createCheckout('ann', 'PREMIUM')).rejects.toMatchObject({ code: 'ALREADY_SUBSCRIBED' });
    await billing.applyEvents(provider.reportChange('sub_ann', { status: 'unpaid' }));
    expect(await billing.createCheckout('ann', 'PREMIUM')).toBe('https://pay.example/cs_ann');
  });
});

describe('the Success screen', () => {
  it("applies the checkout's events before answering; the webhooks repeating them add nothing", async () => {
    const { billing, provider, state, reactions, amounts } = setUp();
    provider.completeCheckout('cs_ann', 'ann');
    const page = await billing.current('ann', 'cs_ann');
    expect(page).toMatchObject({ plan: 'PRO', subscription: { status: 'active', planId: 'PRO' }, billingHistory: [{ amount: 9.99 }] });
    // The webhooks carry the same subscription and invoice under event ids of their own.
    const webhooks = await provider.checkoutSessionEvents('cs_ann', 'ann');
    await billing.applyEvents(webhooks.map((event) => ({ ...event, id: `webhook_${event.id}` })));
    expect(amounts('ann')).toEqual([999]);
    expect(state.history.map((entry) => `${entry.type} ${entry.plan_id}`)).toEqual(['upgrade PRO']);
    expect(reactions).toEqual(['ann upgrade Pro']);
  });

  it("applies nothing for another user's session", async () => {
    const { billing, provider } = setUp();
    provider.completeCheckout('cs_ann', 'ann');
    expect(await billing.current('bob', 'cs_ann')).toMatchObject({ plan: 'FREE', subscription: null, billingHistory: [] });
  });
});

describe('the subscription page', () => {
  it('shows the plan, the subscription, invoices in dollars, the history by plan name and the usage figures', async () => {
    const { billing, clock, subscribe } = setUp();
    await subscribe('ann');
    clock.advance(DAY);
    await billing.upgrade('ann', 'PREMIUM');
    const page = await billing.current('ann');
    expect(page).toMatchObject({
      plan: 'PREMIUM',
      planDetails: { name: 'Business', price: 19.99 },
      subscription: { status: 'active', planId: 'PREMIUM', cancelAtPeriodEnd: false, complimentary: false },
      storageUsed: 1234,
      storageLimit: 1_000_000,
      sharedCount: 2,
      downloadsCount: 7,
      billingHistory: [{ amount: 9.99, currency: 'usd', status: 'paid' }],
      history: [
        { type: 'upgrade', planName: 'Business', date: clock.iso() },
        { type: 'upgrade', planName: 'Pro' },
      ],
    });
    expect(page.subscription?.nextBillingDate).toBe(page.subscription?.currentPeriodEnd);
  });
});

describe('changing plan', () => {
  it('without a paid plan: a checkout for a paid one, and Free refused as the plan already held', async () => {
    const { billing } = setUp();
    expect(await billing.upgrade('ann', 'PREMIUM')).toEqual({ checkoutUrl: 'https://pay.example/cs_ann' });
    await expect(billing.upgrade('ann', 'FREE')).rejects.toMatchObject({ status: 400, code: 'ALREADY_ON_PLAN' });
  });

  it('with a paid plan: moved at the provider and here at once, planChanged once; the same plan refused', async () => {
    const { billing, provider, reactions, planOf, subscribe } = setUp();
    await subscribe('ann');
    expect((await billing.upgrade('ann', 'PREMIUM')).subscription).toMatchObject({ planId: 'PREMIUM', status: 'active' });
    expect(planOf('ann')).toBe('PREMIUM');
    await expect(billing.upgrade('ann', 'PREMIUM')).rejects.toMatchObject({
      status: 400,
      code: 'ALREADY_ON_PLAN',
      message: 'You are on the Business plan already.',
    });
    expect(provider.requests).toEqual(['changePlan sub_ann PREMIUM']);
    expect(reactions).toEqual(['ann upgrade Pro', 'ann upgrade Business']);
  });

  it('previews at a whole second and changes as of that second; a stale or foreign date is refused before the provider is asked', async () => {
    const { billing, clock, provider, subscribe } = setUp();
    await subscribe('ann');
    clock.advance(DAY + 250);
    const preview = await billing.previewChange('ann', 'PREMIUM');
    expect(preview).toMatchObject({ planId: 'PREMIUM', amountNow: 5, currency: 'usd', nextRenewal: { amount: preview.price } });
    expect(preview.prorationDate).toBe(new Date(Math.floor(clock.now().getTime() / 1000) * 1000).toISOString());

    clock.advance(31 * 60 * 1000);
    await expect(billing.upgrade('ann', 'PREMIUM', preview.prorationDate)).rejects.toMatchObject({ status: 400, code: 'PREVIEW_EXPIRED' });
    const fresh = await billing.previewChange('ann', 'PREMIUM');
    await billing.upgrade('ann', 'PREMIUM', fresh.prorationDate);
    expect(provider.requests.filter((request) => request.startsWith('changePlan'))).toEqual([
      `changePlan sub_ann PREMIUM ${fresh.prorationDate}`,
    ]);
    await expect(billing.previewChange('ann', 'PREMIUM')).rejects.toMatchObject({ status: 400, code: 'ALREADY_ON_PLAN' });
    await expect(billing.previewChange('bob', 'PREMIUM')).rejects.toMatchObject({ status: 400, code: 'NO_SUBSCRIPTION' });
  });

  it('to Free is a cancellation', async () => {
    const { billing, clock, subscribe } = setUp();
    await subscribe('ann');
    clock.advance(31 * DAY);
    expect((await billing.upgrade('ann', 'FREE')).subscription).toMatchObject({ cancelAtPeriodEnd: true, nextBillingDate: null });
  });
});

describe('cancelling', () => {
  it('is refused without a paid plan, or when it is set to end already', async () => {
    const { billing, clock, subscribe } = setUp();
    await expect(billing.cancel('ann')).rejects.toMatchObject({ status: 400, code: 'NOTHING_TO_CANCEL' });
    await subscribe('ann');
    clock.advance(31 * DAY);
    await billing.cancel('ann');
    await expect(billing.cancel('ann')).rejects.toMatchObject({
      status: 400,
      code: 'NOTHING_TO_CANCEL',
      message: 'Your subscription is already set to end with this billing period.',
    });
  });

  it('after the first month keeps the plan to the period end, with nothing refunded', async () => {
    const { billing, clock, provider, reactions, planOf, amounts, subscribe } = setUp();
    await subscribe('ann');
    clock.advance(30 * DAY + 1000);
    expect(await billing.cancel('ann')).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, nextBillingDate: null });
    expect(planOf('ann')).toBe('PRO');
    expect(amounts('ann')).toEqual([999]);
    expect(provider.requests).toEqual(['cancelAtPeriodEnd sub_ann']);
    expect(reactions).toEqual(['ann upgrade Pro']);
  });

  it('in the first month refunds the first payment and ends the subscription now, here and at the provider', async () => {
    const { billing, clock, provider, reactions, planOf, amounts, subscribe } = setUp();
    await subscribe('ann');
    clock.advance(30 * DAY);
    expect(await billing.cancel('ann')).toMatchObject({ status: 'canceled', currentPeriodEnd: clock.iso(), nextBillingDate: null });
    expect(planOf('ann')).toBe('FREE');
    expect(amounts('ann')).toEqual([999, -999]);
    expect(provider.requests).toEqual([
      'cancelAtPeriodEnd sub_ann',
      expect.stringMatching(/^refund in_sub_ann_.* 999$/),
      'cancelNow sub_ann',
    ]);
    expect(reactions).toEqual(['ann upgrade Pro', 'ann downgrade Free']);
  });

  it('refunds once per customer: a second subscription runs to its period end', async () => {
    const { billing, clock, provider, amounts, subscribe } = setUp();
    await subscribe('ann');
    await billing.cancel('ann');
    clock.advance(1000);
    provider.requests.length = 0;
    await subscribe('ann');
    expect(await billing.cancel('ann')).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(amounts('ann').filter((amount) => amount < 0)).toHaveLength(1);
    expect(provider.requests).toEqual(['cancelAtPeriodEnd sub_ann_2']);
  });

  it('answers 502 when the refund fails, the subscription still ending with the period', async () => {
    const { billing, provider, logged, planOf, subscribe, state } = setUp();
    await subscribe('ann');
    provider.refund = async () => {
      throw new Error('the provider is down');
    };
    await expect(billing.cancel('ann')).rejects.toMatchObject({ status: 502, code: 'REFUND_FAILED' });
    expect(state.subscriptions.get('sub_ann')).toMatchObject({ status: 'active', cancel_at_period_end: 1 });
    expect(planOf('ann')).toBe('PRO');
    expect(logged).toEqual(['refund failed']);
  });

  it('still answers the refunded, ended subscription when the provider cannot end it now', async () => {
    const { billing, provider, logged, planOf, subscribe } = setUp();
    await subscribe('ann');
    provider.cancelNow = async () => {
      throw new Error('the provider is down');
    };
    expect(await billing.cancel('ann')).toMatchObject({ status: 'canceled' });
    expect(planOf('ann')).toBe('FREE');
    expect(logged).toEqual(['ending a refunded subscription at the provider failed']);
  });
});

describe('reactivating', () => {
  it('is refused unless the subscription is set to end; then it renews again, the plan unchanged', async () => {
    const { billing, clock, reactions, subscribe, state } = setUp();
    await expect(billing.reactivate('ann')).rejects.toMatchObject({ status: 400, code: 'NOTHING_TO_REACTIVATE' });
    await subscribe('ann');
    await expect(billing.reactivate('ann')).rejects.toMatchObject({ code: 'NOTHING_TO_REACTIVATE' });
    clock.advance(31 * DAY);
    await billing.cancel('ann');
    expect(await billing.reactivate('ann')).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect(state.history.map((entry) => `${entry.type} ${entry.plan_id}`)).toEqual(['upgrade PRO', 'cancel FREE', 'other PRO']);
    expect(reactions).toEqual(['ann upgrade Pro']);
  });
});

describe("the provider's billing portal", () => {
  it('returns only to this server: the subscription page unless told another page of it', async () => {
    const { billing, provider, subscribe } = setUp();
    await subscribe('ann');
    expect(await billing.createPortal('ann', undefined)).toBe('https://pay.example/portal_ann');
    await billing.createPortal('ann', '/files?view=grid');
    for (const elsewhere of ['https://evil.example/', '//evil.example/x', 'http://[bad']) {
      await expect(billing.createPortal('ann', elsewhere)).rejects.toMatchObject({ status: 400, code: 'INVALID_RETURN_URL' });
    }
    expect(provider.requests.filter((request) => request.startsWith('createPortalSession'))).toEqual([
      'createPortalSession cus_ann https://drive.example/subscription',
      'createPortalSession cus_ann https://drive.example/files?view=grid',
    ]);
  });

  it('is refused without a paid plan', async () => {
    const { billing } = setUp();
    await expect(billing.createPortal('ann', undefined)).rejects.toMatchObject({ status: 400, code: 'NO_SUBSCRIPTION' });
  });
});

describe('a complimentary plan', () => {
  it("refuses the user's own billing actions with 409, asking the provider nothing", async () => {
    const { billing, provider, grant } = setUp();
    await grant('ann');
    for (const action of [
      () => billing.createCheckout('ann', 'PREMIUM'),
      () => billing.createPortal('ann', undefined),
      () => billing.upgrade('ann', 'PREMIUM'),
      () => billing.upgrade('ann', 'FREE'),
      () => billing.cancel('ann'),
      () => billing.reactivate('ann'),
    ]) {
      await expect(action()).rejects.toMatchObject({ status: 409, code: 'COMPLIMENTARY_PLAN' });
    }
    await billing.endPaidSubscription('ann');
    expect(provider.requests).toEqual([]);
  });
});

describe('before an account is deleted', () => {
  it('a paid subscription ends now at the provider', async () => {
    const { billing, provider, subscribe } = setUp();
    await billing.endPaidSubscription('ann');
    await subscribe('ann');
    await billing.endPaidSubscription('ann');
    expect(provider.requests).toEqual(['cancelNow sub_ann']);
  });
});

describe('renewals left to us', () => {
  it('are applied as payment events when the sweeper runs', async () => {
    const { billing, provider, renewals, planOf, subscribe } = setUp();
    await subscribe('ann');
    renewals.push(...provider.reportChange('sub_ann', { status: 'canceled' }));
    await billing.runRenewals();
    expect(planOf('ann')).toBe('FREE');
  });
});
