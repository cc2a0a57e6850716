import { formatBytes } from '@cloudvault/contract/format';
import type { Plan, PlanId } from '@cloudvault/contract/plans';
import type { CurrentSubscriptionResponse, HistoryType, PlanChangePreview, Subscription } from '@cloudvault/contract/subscriptions';
import type { PaymentEvent, PaymentProvider } from '../../adapters/payments/payment-provider.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { PlanCatalogue } from '../plans/plans.catalogue.ts';
import type { BillingQueries, SubscriptionRow, Transactional } from './billing.repository.ts';
import { COMPLIMENTARY, daysLeft, grantsPlan, prorationDateUsable, prorationMoment } from './billing-rules.ts';
import { presentBillingItem, presentPlan, presentSubscription } from './billing.presenter.ts';
import { type ComplimentaryQueries, createComplimentaryService, refuseComplimentary } from './complimentary.service.ts';
import { createFirstMonthRefund } from './first-month-refund.ts';
import { createPaymentEvents, type PaymentEventQueries } from './payment-events.ts';
import { createPlanChanges, type PlanChangedReaction } from './plan-changes.ts';

/** The billing records this service and its parts read, and the transactions they write in. */
export type BillingRecords = Pick<
  BillingQueries,
  | 'latestSubscription'
  | 'findSubscription'
  | 'findCustomerId'
  | 'saveCustomerId'
  | 'userPlanId'
  | 'listInvoices'
  | 'listHistory'
  | 'usageCounts'
  | 'hasRefund'
  | 'firstPaidInvoice'
  | 'dueComplimentary'
> &
  Transactional<PaymentEventQueries & ComplimentaryQueries>;

export interface BillingServiceDeps {
  billing: BillingRecords;
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
  planChanged: PlanChangedReaction;
  /** Renewals the provider leaves to us (the local test checkout); Stripe renews on its own. */
  dueRenewals?: () => Promise<PaymentEvent[]>;
}

/**
 * Plans, subscriptions and invoices: the user's own billing actions, composed with the
 * module's parts. Every change of state, whether from a webhook, the local checkout or an
 * API answer, goes through applyEvents (payment-events.ts); every change of plan, paid or
 * complimentary, through one transaction runner (plan-changes.ts).
 */
export function createBillingService(deps: BillingServiceDeps) {
  const { billing, provider, plans, clock } = deps;
  const planChanges = createPlanChanges({ records: billing, plans, clock, planChanged: deps.planChanged });
  const { applyEvents } = createPaymentEvents({ planChanges, provider, log: deps.log });
  const complimentary = createComplimentaryService({ records: billing, planChanges, clock });
  const refundFirstPaymentIfDue = createFirstMonthRefund({ records: billing, provider, clock, log: deps.log, applyEvents });

  /** The subscription that gives (or last gave) the user a paid plan. */
  async function activeSubscription(userId: string): Promise<SubscriptionRow | undefined> {
    const latest = await billing.latestSubscription(userId);
    return latest && grantsPlan(latest.status) ? latest : undefined;
  }

  async function requireActive(userId: string, message: string, code: string): Promise<SubscriptionRow> {
    const subscription = await activeSubscription(userId);
    if (!subscription) throw badRequest(message, code);
    refuseComplimentary(subscription, plans);
    return subscription;
  }

  function refuseSamePlan(subscription: SubscriptionRow, planId: PlanId): void {
    if (planId === subscription.plan_id) throw badRequest(`You are on the ${plans.get(planId).name} plan already.`, 'ALREADY_ON_PLAN');
  }

  /** A confirmed preview's date is used only while fresh and inside this period (docs/decisions/0049). */
  function refuseStaleProration(subscription: SubscriptionRow, prorationDate: string): void {
    const usable = prorationDateUsable(prorationDate, {
      now: clock.now().toISOString(),
      periodStart: subscription.current_period_start,
      periodEnd: subscription.current_period_end,
    });
    if (!usable) throw badRequest('The price shown is out of date. Review the change again before confirming it.', 'PREVIEW_EXPIRED');
  }

  async function ensureCustomer(userId: string): Promise<string> {
    const stored = await billing.findCustomerId(userId, provider.name);
    if (stored) return stored;
    const details = await deps.customerDetails(userId);
    const created = await provider.createCustomer({ userId, ...details });
    return billing.saveCustomerId(userId, provider.name, created, clock.now().toISOString());
  }

  async function customerOf(userId: string) {
    return { userId, customerId: await ensureCustomer(userId), ...(await deps.customerDetails(userId)) };
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

  async function createCheckout(userId: string, planId: PlanId): Promise<string> {
    const plan = plans.all().find((candidate) => candidate.id === planId);
    if (!plan || plan.price <= 0)
      throw badRequest('Choose a paid plan to check out; the Free plan needs no payment.', 'PLAN_NOT_PURCHASABLE');
    const active = await activeSubscription(userId);
    refuseComplimentary(active, plans);
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
    ...complimentary,

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

    /**
     * docs/api.md#subscriptions: a checkout without a paid subscription; else an immediate prorated
     * change (as of a confirmed preview's `prorationDate` when given), or FREE = cancel.
     */
    async upgrade(userId: string, planId: PlanId, prorationDate?: string): Promise<{ checkoutUrl?: string; subscription?: Subscription }> {
      const subscription = await activeSubscription(userId);
      refuseComplimentary(subscription, plans);
      if (!subscription) {
        if (planId === 'FREE') throw badRequest('You are on the Free plan already.', 'ALREADY_ON_PLAN');
        return { checkoutUrl: await createCheckout(userId, planId) };
      }
      if (planId === 'FREE') return { subscription: await cancel(userId) };
      refuseSamePlan(subscription, planId);
      if (prorationDate !== undefined) refuseStaleProration(subscription, prorationDate);
      const at = prorationDate === undefined ? undefined : new Date(prorationDate);
      await applyEvents(await provider.changePlan(subscription.provider_subscription_id, planId, at));
      return { subscription: await subscriptionAfterChange(userId) };
    },

    /** docs/api.md#subscriptions: what a change between paid plans would charge or credit now, changing nothing. */
    async previewChange(userId: string, planId: PlanId): Promise<PlanChangePreview> {
      const plan = plans.get(planId);
      if (plan.price <= 0)
        throw badRequest(
          'Moving to Free is a cancellation at the end of the period: nothing is charged or credited.',
          'PLAN_NOT_PURCHASABLE',
        );
      const subscription = await requireActive(userId, 'There is no paid subscription to change. Choose a plan first.', 'NO_SUBSCRIPTION');
      refuseSamePlan(subscription, planId);
      const at = prorationMoment(clock.now());
      const quote = await provider.previewPlanChange(subscription.provider_subscription_id, planId, at);
      return {
        planId,
        price: plan.price,
        amountNow: quote.amountCents / 100,
        currency: quote.currency,
        prorationDate: at.toISOString(),
        daysLeft: daysLeft(at.toISOString(), quote.periodEnd),
        nextRenewal: subscription.cancel_at_period_end === 1 ? null : { date: quote.periodEnd, amount: plan.price },
      };
    },

    async reactivate(userId: string): Promise<Subscription> {
      const subscription = await activeSubscription(userId);
      refuseComplimentary(subscription, plans);
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

    /** The sweeper's turn: invoices for new periods and ends of canceled subscriptions. */
    async runRenewals(): Promise<void> {
      if (deps.dueRenewals) await applyEvents(await deps.dueRenewals());
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
