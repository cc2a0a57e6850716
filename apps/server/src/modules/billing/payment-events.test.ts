import { describe, expect, it } from 'vitest';
import type { PaymentEvent, SubscriptionSnapshot } from '../../adapters/payments/payment-provider.ts';
import { fakeBillingRecords, fakeClock, fakePlans, paidInvoice, recordingPlanChanged, subscriptionSnapshot } from './billing.fakes.ts';
import { createPaymentEvents } from './payment-events.ts';
import { createPlanChanges } from './plan-changes.ts';

const DAY = 24 * 60 * 60 * 1000;

function setUp() {
  const clock = fakeClock();
  const { records, state } = fakeBillingRecords(['ann', 'bob']);
  const { reactions, planChanged } = recordingPlanChanged();
  const warnings: string[] = [];
  const planChanges = createPlanChanges({
    records,
    plans: fakePlans(),
    clock,
    planChanged,
  });
  const { applyEvents } = createPaymentEvents({
    planChanges,
    provider: { name: 'stripe' },
    log: { warn: (_details, message) => warnings.push(message) },
  });
  const pro = subscriptionSnapshot('ann', clock.iso());
  let count = 0;
  const changed = (subscription: SubscriptionSnapshot): PaymentEvent => ({
    id: `evt_${(count += 1)}`,
    type: 'subscription.changed',
    subscription,
  });
  const checkout = (subscription = pro): PaymentEvent => ({ id: 'evt_checkout', type: 'checkout.completed', userId: 'ann', subscription });
  const paid = (subscription: SubscriptionSnapshot | null = pro, at = clock.iso()): PaymentEvent => ({
    id: `evt_paid_${at}`,
    type: 'invoice.paid',
    invoice: paidInvoice(pro, at),
    subscription,
  });
  const subscriptionRow = () => state.subscriptions.get(pro.providerSubscriptionId);
  const historyOf = () => state.history.map((entry) => `${entry.type} ${entry.plan_id}`);
  return { applyEvents, state, reactions, warnings, clock, pro, changed, checkout, paid, subscriptionRow, historyOf };
}

describe('a paid checkout', () => {
  it('moves the user to the plan and keeps the customer, telling planChanged once', async () => {
    const { applyEvents, state, reactions, checkout, paid, subscriptionRow, historyOf } = setUp();
    await applyEvents([checkout(), paid()]);
    expect(state.plansOfUsers.get('ann')).toBe('PRO');
    expect(state.customers.get('stripe:ann')).toBe('cus_ann');
    expect(subscriptionRow()).toMatchObject({
      user_id: 'ann',
      provider: 'stripe',
      plan_id: 'PRO',
      status: 'active',
      cancel_at_period_end: 0,
    });
    expect(historyOf()).toEqual(['upgrade PRO']);
    expect(reactions).toEqual(['ann upgrade Pro']);
  });

  it("goes to the checkout's user when the provider's record names no user we know", async () => {
    const { applyEvents, state, pro } = setUp();
    await applyEvents([{ id: 'evt_checkout', type: 'checkout.completed', userId: 'ann', subscription: { ...pro, userId: 'gone' } }]);
    expect(state.plansOfUsers.get('ann')).toBe('PRO');
  });
});

describe('the same event twice', () => {
  it('is applied once, in one batch or later, even when the repeat carries newer state', async () => {
    const { applyEvents, state, reactions, checkout, paid, pro } = setUp();
    const payment = paid();
    await applyEvents([checkout(), payment, payment]);
    await applyEvents([payment, checkout({ ...pro, planId: 'PREMIUM' })]);
    expect(state.invoices.size).toBe(1);
    expect(state.plansOfUsers.get('ann')).toBe('PRO');
    expect(reactions).toEqual(['ann upgrade Pro']);
  });

  it('with another id but the same state changes nothing: no history, no planChanged', async () => {
    const { applyEvents, reactions, checkout, changed, pro, historyOf } = setUp();
    await applyEvents([checkout(), changed(pro), changed(pro)]);
    expect(historyOf()).toEqual(['upgrade PRO']);
    expect(reactions).toEqual(['ann upgrade Pro']);
  });
});

describe('out of order and late events', () => {
  it('never bring a canceled subscription back', async () => {
    const { applyEvents, state, reactions, checkout, changed, pro, subscriptionRow } = setUp();
    await applyEvents([checkout(), changed({ ...pro, status: 'canceled' }), changed(pro), changed({ ...pro, cancelAtPeriodEnd: true })]);
    expect(subscriptionRow()?.status).toBe('canceled');
    expect(state.plansOfUsers.get('ann')).toBe('FREE');
    expect(reactions).toEqual(['ann upgrade Pro', 'ann downgrade Free']);
  });

  it('record the invoice of a subscription deleted before invoice.paid arrived, and leave it on Free', async () => {
    const { applyEvents, state, checkout, changed, paid, pro, subscriptionRow } = setUp();
    await applyEvents([checkout(), changed({ ...pro, status: 'canceled' }), paid(pro)]);
    expect([...state.invoices.values()]).toMatchObject([{ user_id: 'ann', status: 'paid', amount_cents: 999 }]);
    expect(subscriptionRow()?.status).toBe('canceled');
    expect(state.plansOfUsers.get('ann')).toBe('FREE');
  });

  it('grant nothing while the subscription is incomplete or unpaid, and the plan once it is active', async () => {
    const { applyEvents, state, reactions, changed, pro } = setUp();
    await applyEvents([changed({ ...pro, status: 'incomplete' })]);
    expect(state.plansOfUsers.get('ann')).toBe('FREE');
    await applyEvents([changed(pro)]);
    expect(state.plansOfUsers.get('ann')).toBe('PRO');
    await applyEvents([changed({ ...pro, status: 'unpaid' })]);
    expect(state.plansOfUsers.get('ann')).toBe('FREE');
    expect(reactions).toEqual(['ann upgrade Pro', 'ann downgrade Free']);
  });

  it('keep the date the subscription was first seen, and the user it was first for', async () => {
    const { applyEvents, clock, checkout, changed, pro, subscriptionRow } = setUp();
    await applyEvents([checkout()]);
    clock.advance(DAY);
    await applyEvents([changed({ ...pro, createdAt: clock.iso(), userId: 'bob', planId: 'PREMIUM' })]);
    expect(subscriptionRow()).toMatchObject({ user_id: 'ann', plan_id: 'PREMIUM', created_at: pro.createdAt, updated_at: clock.iso() });
  });
});

describe('who an event is for', () => {
  it("is found by the provider's customer id when the event names no user", async () => {
    const { applyEvents, state, clock, checkout, changed, pro } = setUp();
    await applyEvents([checkout()]);
    clock.advance(DAY);
    await applyEvents([changed({ ...pro, userId: null, providerSubscriptionId: 'sub_second', planId: 'PREMIUM', createdAt: clock.iso() })]);
    expect(state.subscriptions.get('sub_second')?.user_id).toBe('ann');
    expect(state.plansOfUsers.get('ann')).toBe('PREMIUM');
  });

  it('is nobody for a customer no user has: the event is logged and leaves nothing else', async () => {
    const { applyEvents, state, warnings, changed } = setUp();
    const stranger = subscriptionSnapshot('stranger', '2026-11-01T12:00:00.000Z');
    await applyEvents([
      changed(stranger),
      { id: 'evt_stranger_paid', type: 'invoice.paid', invoice: paidInvoice(stranger, stranger.createdAt), subscription: null },
    ]);
    expect(warnings).toEqual(['payment event for an unknown customer ignored', 'invoice for an unknown customer ignored']);
    expect(state.subscriptions.size + state.invoices.size + state.history.length).toBe(0);
  });
});

describe('cancelling at period end', () => {
  it('keeps the plan, noting the cancel (to Free) and the undo (the plan kept), without telling planChanged', async () => {
    const { applyEvents, state, reactions, checkout, changed, pro, historyOf } = setUp();
    await applyEvents([checkout(), changed({ ...pro, cancelAtPeriodEnd: true }), changed(pro)]);
    expect(state.plansOfUsers.get('ann')).toBe('PRO');
    expect(historyOf()).toEqual(['upgrade PRO', 'cancel FREE', 'other PRO']);
    expect(reactions).toEqual(['ann upgrade Pro']);
  });
});

describe('invoices', () => {
  it('start the refund window at the first paid one, never at a renewal or a free one', async () => {
    const { applyEvents, clock, checkout, paid, pro, subscriptionRow } = setUp();
    const free: PaymentEvent = {
      id: 'evt_free',
      type: 'invoice.paid',
      invoice: paidInvoice(pro, 'free', { amountCents: 0 }),
      subscription: pro,
    };
    await applyEvents([checkout(), free]);
    expect(subscriptionRow()?.first_paid_at).toBeNull();
    const first = clock.iso();
    await applyEvents([paid()]);
    clock.advance(30 * DAY);
    await applyEvents([paid(pro, clock.iso())]);
    expect(subscriptionRow()?.first_paid_at).toBe(first);
  });

  it('update a failed payment that a retry paid: one invoice, paid', async () => {
    const { applyEvents, state, checkout, pro } = setUp();
    const invoice = paidInvoice(pro, pro.createdAt);
    await applyEvents([
      checkout(),
      {
        id: 'evt_failed',
        type: 'invoice.payment_failed',
        invoice: { ...invoice, status: 'failed', paymentRef: null },
        subscription: { ...pro, status: 'past_due' },
      },
    ]);
    expect(state.plansOfUsers.get('ann')).toBe('PRO');
    await applyEvents([{ id: 'evt_retried', type: 'invoice.paid', invoice, subscription: pro }]);
    expect([...state.invoices.values()]).toMatchObject([{ status: 'paid', payment_ref: invoice.paymentRef }]);
  });
});

describe('a refund', () => {
  it('ends the subscription now and moves the user to Free, once', async () => {
    const { applyEvents, state, reactions, clock, checkout, paid, pro, subscriptionRow } = setUp();
    const payment = paid();
    await applyEvents([checkout(), payment]);
    clock.advance(3 * DAY);
    const refundOf = payment.type === 'invoice.paid' ? payment.invoice.providerInvoiceId : '';
    const refund: PaymentEvent = {
      id: 'evt_refund',
      type: 'invoice.refunded',
      refundOf,
      invoice: paidInvoice(pro, clock.iso(), { providerInvoiceId: 're_1', providerSubscriptionId: null, amountCents: -999 }),
    };
    await applyEvents([refund, { ...refund, id: 'evt_refund_again' }]);
    expect(subscriptionRow()).toMatchObject({ status: 'canceled', cancel_at_period_end: 0, current_period_end: clock.iso() });
    expect(state.invoices.get('re_1')).toMatchObject({ user_id: 'ann', refund_of: refundOf, amount_cents: -999 });
    expect(state.plansOfUsers.get('ann')).toBe('FREE');
    expect(reactions).toEqual(['ann upgrade Pro', 'ann downgrade Free']);
  });
});
