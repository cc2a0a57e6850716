import { formatBytes } from '@cloudvault/contract/format';
import type { Plan, PlanId } from '@cloudvault/contract/plans';
import type { CurrentSubscriptionResponse, HistoryType, Subscription } from '@cloudvault/contract/subscriptions';
import type { InvoiceSnapshot, PaymentEvent, PaymentProvider, SubscriptionSnapshot } from '../../adapters/payments/payment-provider.ts';
import type { AuditEntryRow } from '../../db/admin-audit.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, badRequest, conflict } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { PlanCatalogue } from '../plans/plans.catalogue.ts';
import type { BillingQueries, BillingRepository, SubscriptionRow } from './billing.repository.ts';
import { COMPLIMENTARY, grantsPlan, planChangeType, refundDue } from './billing-rules.ts';
import { presentBillingItem, presentPlan, presentSubscription } from './billing.presenter.ts';

export interface BillingServiceDeps {
  billing: BillingRepository;
  provider: PaymentProvider;
  plans: PlanCatalogue;
  clock: Clock;
  publicUrl: string;
  storageUsed(userId: string): Promise<number>;
  /** Who the provider's customer is. */
  customerDetails(userId: string): Promise<{ email: string; name: string }>;
  /** Active shares and downloads through them, for the subscription page's usage figures. */
  shareCounts(userId: string): Promise<{ shared: number; downloads: number }>;
  log: ServiceLog;
  /** After a plan change is committed: the account's activity log. */
  planChanged(userId: string, change: { type: HistoryType; planName: string }): Promise<void>;
  /** Renewals the provider leaves to us (the local test checkout); Stripe renews on its own. */
  dueRenewals?: () => Promise<PaymentEvent[]>;
}

/**
 * Plans, subscriptions and invoices. Every change of state, whether from a webhook, the
 * local checkout or an API answer, goes through applyEvents: recorded by event id and
 * applied once, in one transaction, the user's plan following the subscription.
 */
export function createBillingService(deps: BillingServiceDeps) {
  const { billing, provider, plans, clock } = deps;
  const now = () => clock.now().toISOString();

  /** The subscription that gives (or last gave) the user a paid plan. */
  async function activeSubscription(userId: string): Promise<SubscriptionRow | undefined> {
    const latest = await billing.latestSubscription(userId);
    return latest && grantsPlan(latest.status) ? latest : undefined;
  }

  /** A plan an operator granted has no provider behind it: the user's billing actions do not apply to it. */
  function refuseComplimentary(subscription: SubscriptionRow | undefined): void {
    if (subscription?.provider !== COMPLIMENTARY) return;
    const name = plans.get(subscription.plan_id).name;
    throw conflict(
      `Your ${name} plan is complimentary until ${subscription.current_period_end.slice(0, 10)}, so there is nothing to pay, change or cancel yet.`,
      'COMPLIMENTARY_PLAN',
    );
  }

  async function requireActive(userId: string, message: string, code: string): Promise<SubscriptionRow> {
    const subscription = await activeSubscription(userId);
    if (!subscription) throw badRequest(message, code);
    refuseComplimentary(subscription);
    return subscription;
  }

  async function ensureCustomer(userId: string): Promise<string> {
    const stored = await billing.findCustomerId(userId, provider.name);
    if (stored) return stored;
    const details = await deps.customerDetails(userId);
    const created = await provider.createCustomer({ userId, ...details });
    return billing.saveCustomerId(userId, provider.name, created, now());
  }

  async function customerOf(userId: string) {
    return { userId, customerId: await ensureCustomer(userId), ...(await deps.customerDetails(userId)) };
  }

  async function history(repository: BillingQueries, userId: string, type: HistoryType, planId: string, at: string) {
    await repository.addHistory({ id: newId(), user_id: userId, type, plan_id: planId, created_at: at });
  }

  type PlanChange = { userId: string; type: HistoryType; planName: string };

  /**
   * Moves the user's plan to what their newest subscription grants, noting the move. The
   * user's row is locked first: a subscription another node records meanwhile is either
   * committed before this reads (and counted here), or its transaction decides the plan only
   * after this one commits; never read as absent here while its plan is then overwritten.
   */
  async function followSubscription(repository: BillingQueries, userId: string, at: string): Promise<PlanChange | null> {
    await repository.lockUser(userId);
    const latest = await repository.latestSubscription(userId);
    const planId = latest && grantsPlan(latest.status) ? latest.plan_id : 'FREE';
    const previous = (await repository.userPlanId(userId)) ?? 'FREE';
    if (planId === previous) return null;
    const type = planChangeType(plans.get(previous), plans.get(planId));
    await repository.setUserPlan(userId, planId, at);
    await history(repository, userId, type, planId, at);
    return { userId, type, planName: plans.get(planId).name };
  }

  async function userOfSnapshot(repository: BillingQueries, snapshot: { customerId: string; userId: string | null }, hint?: string) {
    for (const candidate of [hint, snapshot.userId]) {
      if (candidate && (await repository.userExists(candidate))) return candidate;
    }
    return repository.findUserIdByCustomer(provider.name, snapshot.customerId);
  }

  async function applySubscription(
    repository: BillingQueries,
    snapshot: SubscriptionSnapshot,
    at: string,
    userHint?: string,
  ): Promise<PlanChange | null> {
    const userId = await userOfSnapshot(repository, snapshot, userHint);
    if (!userId) {
      deps.log.warn({ subscription: snapshot.providerSubscriptionId }, 'payment event for an unknown customer ignored');
      return null;
    }
    await repository.saveCustomerId(userId, provider.name, snapshot.customerId, at);
    const existing = await repository.findSubscription(snapshot.providerSubscriptionId);
    // Canceled is final at every provider: a late or repeated report cannot bring it back.
    if (existing?.status === 'canceled' && snapshot.status !== 'canceled') return null;
    await repository.saveSubscription({
      provider_subscription_id: snapshot.providerSubscriptionId,
      user_id: existing?.user_id ?? userId,
      provider: provider.name,
      customer_id: snapshot.customerId,
      plan_id: snapshot.planId,
      status: snapshot.status,
      cancel_at_period_end: snapshot.cancelAtPeriodEnd ? 1 : 0,
      current_period_start: snapshot.currentPeriodStart,
      current_period_end: snapshot.currentPeriodEnd,
      first_paid_at: null,
      created_at: existing?.created_at ?? snapshot.createdAt,
      updated_at: at,
    });
    if (existing && snapshot.status !== 'canceled' && existing.cancel_at_period_end !== (snapshot.cancelAtPeriodEnd ? 1 : 0)) {
      // Cancel names the plan the user moves to at period end; reactivating, the plan kept.
      await history(
        repository,
        existing.user_id,
        snapshot.cancelAtPeriodEnd ? 'cancel' : 'other',
        snapshot.cancelAtPeriodEnd ? 'FREE' : snapshot.planId,
        at,
      );
    }
    return followSubscription(repository, existing?.user_id ?? userId, at);
  }

  async function applyInvoice(repository: BillingQueries, invoice: InvoiceSnapshot, refundOf: string | null = null) {
    const subscription = invoice.providerSubscriptionId ? await repository.findSubscription(invoice.providerSubscriptionId) : undefined;
    const userId = subscription?.user_id ?? (await repository.findUserIdByCustomer(provider.name, invoice.customerId));
    if (!userId) {
      deps.log.warn({ invoice: invoice.providerInvoiceId }, 'invoice for an unknown customer ignored');
      return;
    }
    await repository.saveInvoice({
      provider_invoice_id: invoice.providerInvoiceId,
      user_id: userId,
      provider_subscription_id: invoice.providerSubscriptionId,
      amount_cents: invoice.amountCents,
      currency: invoice.currency,
      status: invoice.status,
      invoice_url: invoice.invoiceUrl,
      payment_ref: invoice.paymentRef,
      refund_of: refundOf,
      created_at: invoice.createdAt,
    });
    if (invoice.status === 'paid' && invoice.amountCents > 0 && invoice.providerSubscriptionId) {
      await repository.setFirstPaidAt(invoice.providerSubscriptionId, invoice.createdAt);
    }
  }

  /**
   * A refund gives back what paid for the period, so the period ends with it: the
   * subscription is over now and the user is on Free, whatever the provider still says
   * (canceled is final here, so a late report cannot bring the plan back).
   */
  async function endRefunded(repository: BillingQueries, refundedInvoiceId: string, at: string): Promise<PlanChange | null> {
    const paid = await repository.findInvoice(refundedInvoiceId);
    const subscription = paid?.provider_subscription_id ? await repository.findSubscription(paid.provider_subscription_id) : undefined;
    if (!subscription) return null;
    if (subscription.status !== 'canceled') {
      await repository.saveSubscription({
        ...subscription,
        status: 'canceled',
        cancel_at_period_end: 0,
        current_period_end: at < subscription.current_period_end ? at : subscription.current_period_end,
        updated_at: at,
      });
    }
    return followSubscription(repository, subscription.user_id, at);
  }

  async function applyEvents(events: PaymentEvent[]): Promise<void> {
    for (const event of events) {
      const change = await billing.transaction(async (repository): Promise<PlanChange | null> => {
        const at = now();
        if (!(await repository.recordEvent(event.id, event.type, at))) return null;
        switch (event.type) {
          case 'checkout.completed':
            return applySubscription(repository, event.subscription, at, event.userId);
          case 'subscription.changed':
            return applySubscription(repository, event.subscription, at);
          case 'invoice.paid':
          case 'invoice.payment_failed': {
            const moved = event.subscription ? await applySubscription(repository, event.subscription, at) : null;
            await applyInvoice(repository, event.invoice);
            return moved;
          }
          case 'invoice.refunded':
            await applyInvoice(repository, event.invoice, event.refundOf);
            return endRefunded(repository, event.refundOf, at);
        }
      });
      // Outside the transaction: SQLite has one connection, which the transaction holds.
      if (change) await deps.planChanged(change.userId, { type: change.type, planName: change.planName });
    }
  }

  /**
   * Ends a complimentary plan as of `endedAt` and moves the user to what remains, with the
   * operator's audit entry when an operator ends it; false when it had ended already.
   */
  async function endComplimentaryPlan(row: SubscriptionRow, endedAt: string, audit?: AuditEntryRow): Promise<boolean> {
    const change = await billing.transaction(async (repository): Promise<PlanChange | null | false> => {
      const at = now();
      if (!(await repository.endActiveSubscription(row.provider_subscription_id, endedAt < at ? endedAt : at, at))) return false;
      await repository.recordAuditEntry(audit);
      return followSubscription(repository, row.user_id, at);
    });
    if (change) await deps.planChanged(change.userId, { type: change.type, planName: change.planName });
    return change !== false;
  }

  /** The caller's subscription after a change; the change must have left one. */
  async function subscriptionAfterChange(userId: string): Promise<Subscription> {
    const latest = await billing.latestSubscription(userId);
    if (!latest) throw new Error('a subscription change left no subscription');
    return presentSubscription(latest);
  }

  async function cancel(userId: string): Promise<Subscription> {
    const subscription = await requireActive(userId, 'There is no paid subscription to cancel.', 'NOTHING_TO_CANCEL');
    if (subscription.cancel_at_period_end === 1)
      throw badRequest('Your subscription is already set to end with this billing period.', 'NOTHING_TO_CANCEL');
    await applyEvents(await provider.cancelAtPeriodEnd(subscription.provider_subscription_id));
    await refundFirstPaymentIfDue(subscription);
    return subscriptionAfterChange(userId);
  }

  /**
   * docs/product.md#billing-rules: a cancellation in the first month refunds that month, once per customer
   * (a second subscription's first month is not refunded), and the refund ends the
   * subscription at once: otherwise subscribe, cancel, keep the month, repeat was free.
   */
  async function refundFirstPaymentIfDue(subscription: SubscriptionRow): Promise<void> {
    const latest = await billing.findSubscription(subscription.provider_subscription_id);
    if (!refundDue(latest?.first_paid_at ?? null, now())) return;
    if (await billing.hasRefund(subscription.user_id)) return;
    const paid = await billing.firstPaidInvoice(subscription.provider_subscription_id);
    if (!paid) return;
    let events: PaymentEvent[];
    try {
      events = await provider.refund({
        providerInvoiceId: paid.provider_invoice_id,
        paymentRef: paid.payment_ref,
        customerId: subscription.customer_id,
        amountCents: Number(paid.amount_cents),
        currency: paid.currency,
      });
    } catch (error) {
      deps.log.error({ err: error, invoice: paid.provider_invoice_id }, 'refund failed');
      throw new AppError(
        502,
        'REFUND_FAILED',
        'Your subscription will end with this billing period, but the refund of your first payment failed. Please contact support.',
      );
    }
    await applyEvents(events);
    // Our books ended the subscription with the refund; the provider stops it too. Should
    // that fail, it still ends at period end there (it was canceled at period end above).
    try {
      await applyEvents(await provider.cancelNow(subscription.provider_subscription_id));
    } catch (error) {
      deps.log.error(
        { err: error, subscription: subscription.provider_subscription_id },
        'ending a refunded subscription at the provider failed',
      );
    }
  }

  async function createCheckout(userId: string, planId: PlanId): Promise<string> {
    const plan = plans.all().find((candidate) => candidate.id === planId);
    if (!plan || plan.price <= 0)
      throw badRequest('Choose a paid plan to check out; the Free plan needs no payment.', 'PLAN_NOT_PURCHASABLE');
    const active = await activeSubscription(userId);
    refuseComplimentary(active);
    if (active)
      throw conflict(
        `You already have the ${plans.get(active.plan_id).name} plan. Change plans from Subscription & Billing.`,
        'ALREADY_SUBSCRIBED',
      );
    const session = await provider.createCheckoutSession({ customer: await customerOf(userId), planId });
    return session.url;
  }

  /** Only addresses on this server: a portal must never send the user elsewhere. */
  function safeReturnUrl(returnUrl: string | undefined): string {
    if (returnUrl === undefined || returnUrl === '') return `${deps.publicUrl}/subscription`;
    let parsed: URL;
    try {
      parsed = new URL(returnUrl, deps.publicUrl);
    } catch {
      throw badRequest('returnUrl must be an address on this server.', 'INVALID_RETURN_URL');
    }
    if (parsed.origin !== new URL(deps.publicUrl).origin)
      throw badRequest('returnUrl must be an address on this server.', 'INVALID_RETURN_URL');
    return parsed.toString();
  }

  return {
    applyEvents,
    cancel,
    createCheckout,

    plans(): Plan[] {
      return plans.all().map(presentPlan);
    },

    async current(userId: string, checkoutSessionId?: string): Promise<CurrentSubscriptionResponse> {
      if (checkoutSessionId) await applyEvents(await provider.checkoutSessionEvents(checkoutSessionId, userId));
      const [planId, latest, invoices, entries, storageUsed, counts, shares] = await Promise.all([
        billing.userPlanId(userId),
        billing.latestSubscription(userId),
        billing.listInvoices(userId),
        billing.listHistory(userId),
        deps.storageUsed(userId),
        billing.usageCounts(userId),
        deps.shareCounts(userId),
      ]);
      const plan = plans.get(planId ?? 'FREE');
      return {
        plan: plan.id,
        planDetails: { name: plan.name, storageFormatted: formatBytes(plan.storageLimit), price: plan.price },
        subscription: latest ? presentSubscription(latest) : null,
        storageUsed,
        storageLimit: plan.storageLimit,
        filesCount: counts.files,
        foldersCount: counts.folders,
        sharedCount: shares.shared,
        downloadsCount: shares.downloads,
        fileTypes: { documents: counts.documents, images: counts.images, videos: counts.videos },
        billingHistory: invoices.map(presentBillingItem),
        history: entries.map((entry) => ({
          type: entry.type as HistoryType,
          planName: plans.get(entry.plan_id).name,
          date: entry.created_at,
        })),
      };
    },

    async createPortal(userId: string, returnUrl: string | undefined): Promise<string> {
      const target = safeReturnUrl(returnUrl);
      await requireActive(userId, 'There is no paid subscription to manage. Choose a plan first.', 'NO_SUBSCRIPTION');
      return (await provider.createPortalSession({ customer: await customerOf(userId), returnUrl: target })).url;
    },

    /** docs/api.md#subscriptions: a checkout without a paid subscription; else an immediate prorated change, or FREE = cancel. */
    async upgrade(userId: string, planId: PlanId): Promise<{ checkoutUrl?: string; subscription?: Subscription }> {
      const subscription = await activeSubscription(userId);
      refuseComplimentary(subscription);
      if (!subscription) {
        if (planId === 'FREE') throw badRequest('You are on the Free plan already.', 'ALREADY_ON_PLAN');
        return { checkoutUrl: await createCheckout(userId, planId) };
      }
      if (planId === 'FREE') return { subscription: await cancel(userId) };
      if (planId === subscription.plan_id) {
        throw badRequest(`You are on the ${plans.get(planId).name} plan already.`, 'ALREADY_ON_PLAN');
      }
      await applyEvents(await provider.changePlan(subscription.provider_subscription_id, planId));
      return { subscription: await subscriptionAfterChange(userId) };
    },

    async reactivate(userId: string): Promise<Subscription> {
      const subscription = await activeSubscription(userId);
      refuseComplimentary(subscription);
      if (!subscription || subscription.cancel_at_period_end !== 1) {
        throw badRequest('There is no subscription waiting to end, so nothing to reactivate.', 'NOTHING_TO_REACTIVATE');
      }
      await applyEvents(await provider.reactivate(subscription.provider_subscription_id));
      return subscriptionAfterChange(userId);
    },

    activeSubscription,

    /** Before an account is deleted: a paid subscription ends at once, so it is never charged again. */
    async endPaidSubscription(userId: string): Promise<void> {
      const subscription = await activeSubscription(userId);
      // A complimentary plan is never charged: deleting the account's rows ends it.
      if (subscription && subscription.provider !== COMPLIMENTARY) await provider.cancelNow(subscription.provider_subscription_id);
    },

    /**
     * An operator grants a plan free of charge until `endsAt` (docs/decisions/0029-operator-console.md):
     * a subscription row of the `complimentary` provider, which no renewal bills; a second
     * grant changes the first. 409 while the user pays for a plan: that is never replaced here.
     * The operator's audit entry commits with the grant.
     */
    async grantComplimentary(
      input: { userId: string; planId: PlanId; endsAt: string; reason: string; grantedBy: string | null },
      audit?: AuditEntryRow,
    ): Promise<Subscription> {
      const change = await billing.transaction(async (repository) => {
        const at = now();
        // Before the paid-subscription check, which must see what another node commits meanwhile.
        await repository.lockUser(input.userId);
        const latest = await repository.latestSubscription(input.userId);
        if (latest && grantsPlan(latest.status) && latest.provider !== COMPLIMENTARY) {
          throw conflict('This account pays for its plan: a complimentary plan cannot replace a paid subscription.', 'PAID_SUBSCRIPTION');
        }
        const current = latest?.provider === COMPLIMENTARY && latest.status === 'active' ? latest : undefined;
        await repository.saveSubscription({
          provider_subscription_id: current?.provider_subscription_id ?? `comp_${newId()}`,
          user_id: input.userId,
          provider: COMPLIMENTARY,
          customer_id: '',
          plan_id: input.planId,
          status: 'active',
          // It ends at its date: nothing renews it.
          cancel_at_period_end: 1,
          current_period_start: current?.current_period_start ?? at,
          current_period_end: input.endsAt,
          first_paid_at: null,
          created_at: current?.created_at ?? at,
          updated_at: at,
          grant_reason: input.reason,
          granted_by: input.grantedBy,
        });
        await repository.recordAuditEntry(audit);
        return followSubscription(repository, input.userId, at);
      });
      if (change) await deps.planChanged(change.userId, { type: change.type, planName: change.planName });
      return subscriptionAfterChange(input.userId);
    },

    /** The active complimentary plan of the user, if an operator granted one. */
    async complimentaryPlan(userId: string): Promise<SubscriptionRow | undefined> {
      const latest = await activeSubscription(userId);
      return latest?.provider === COMPLIMENTARY ? latest : undefined;
    },

    /** Ends the user's complimentary plan now (an operator's choice, audited with it); false when there is none. */
    async endComplimentary(userId: string, audit?: AuditEntryRow): Promise<boolean> {
      const latest = await billing.latestSubscription(userId);
      if (latest?.provider !== COMPLIMENTARY) return false;
      return endComplimentaryPlan(latest, now(), audit);
    },

    /**
     * The complimentary plans whose date has come end, and their users move to Free. Safe to
     * run twice at once: a plan is ended by whichever run changes it from active. Answers how many ended.
     */
    async endExpiredComplimentary(): Promise<number> {
      let ended = 0;
      for (const row of await billing.dueComplimentary(now())) {
        if (await endComplimentaryPlan(row, row.current_period_end)) ended += 1;
      }
      return ended;
    },

    /** The sweeper's turn: invoices for new periods and ends of canceled subscriptions. */
    async runRenewals(): Promise<void> {
      if (deps.dueRenewals) await applyEvents(await deps.dueRenewals());
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
