import type { PlanId } from '@cloudvault/contract/plans';

/**
 * What a payment provider says happened, in one shape for every provider. Stripe webhooks,
 * Stripe API answers and the local checkout all become these, and the billing service
 * applies them through one code path (BillingService.applyEvents).
 */

/** A subscription as the provider holds it now. Amounts never appear here; plans do. */
export interface SubscriptionSnapshot {
  /** The provider's id (Stripe `sub_…`, local `sub_local_…`). */
  providerSubscriptionId: string;
  customerId: string;
  /** Our user, when the provider carries it (Stripe metadata, local sessions); else found by customer. */
  userId: string | null;
  planId: PlanId;
  /**
   * Provider statuses other than these (trialing, paused…) arrive mapped: see each adapter.
   * Only active and past_due grant the plan: incomplete (the first payment was never made)
   * and unpaid (retries gave up) are open but unpaid, and may still turn active.
   */
  status: 'active' | 'past_due' | 'incomplete' | 'unpaid' | 'canceled';
  cancelAtPeriodEnd: boolean;
  /** ISO 8601 UTC. */
  currentPeriodStart: string;
  currentPeriodEnd: string;
  createdAt: string;
}

export interface InvoiceSnapshot {
  /** The provider's id (Stripe `in_…`, local `in_local_…`); refunds use the refund's id. */
  providerInvoiceId: string;
  providerSubscriptionId: string | null;
  customerId: string;
  /** Smallest currency unit (cents); negative for a refund. */
  amountCents: number;
  /** ISO 4217, lower case. */
  currency: string;
  status: 'paid' | 'pending' | 'failed';
  /** ISO 8601 UTC. */
  createdAt: string;
  /** A page where the user sees the invoice, when the provider has one. */
  invoiceUrl: string | null;
  /** What a refund of this invoice needs (Stripe PaymentIntent id); null when not refundable. */
  paymentRef: string | null;
}

export type PaymentEvent =
  | {
      /** The provider's event id: the same id is applied once. */
      id: string;
      type: 'checkout.completed';
      userId: string;
      subscription: SubscriptionSnapshot;
    }
  | { id: string; type: 'subscription.changed'; subscription: SubscriptionSnapshot }
  | { id: string; type: 'invoice.paid' | 'invoice.payment_failed'; invoice: InvoiceSnapshot; subscription: SubscriptionSnapshot | null }
  | {
      id: string;
      type: 'invoice.refunded';
      invoice: InvoiceSnapshot;
      /** The paid invoice this refund gives back: its subscription ends with the refund. */
      refundOf: string;
    };

/** A provider's figure for a plan change before it is made. */
export interface PlanChangeQuote {
  /** Smallest currency unit (cents) charged at once for the rest of the period; negative for a credit. */
  amountCents: number;
  /** ISO 4217, lower case. */
  currency: string;
  /** ISO 8601 UTC: the current period's end, when the new price is first billed whole. */
  periodEnd: string;
}

/** A provider's answer to a request the signature check refused (webhooks). */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

/** The customer a checkout or portal is for. */
export interface BillingCustomer {
  userId: string;
  email: string;
  name: string;
  /** The provider's customer id once one was created; created once and reused. */
  customerId: string | null;
}

export interface PaymentProvider {
  readonly name: 'local' | 'stripe';

  /** Creates the provider's customer for a user (once; the caller stores the id). */
  createCustomer(customer: Omit<BillingCustomer, 'customerId'>): Promise<string>;

  /** A hosted checkout for a paid plan; the browser is sent to `url`. */
  createCheckoutSession(input: {
    customer: BillingCustomer & { customerId: string };
    planId: PlanId;
  }): Promise<{ id: string; url: string }>;

  /** The provider's own billing page for a customer with a paid subscription. */
  createPortalSession(input: { customer: BillingCustomer & { customerId: string }; returnUrl: string }): Promise<{ url: string }>;

  /**
   * What a finished checkout produced, asked of the provider directly (the Success screen
   * loads before the webhook may have arrived). Empty when the session is not paid yet,
   * unknown, or belongs to another user.
   */
  checkoutSessionEvents(sessionId: string, userId: string): Promise<PaymentEvent[]>;

  /**
   * What changePlan with the same `prorationDate` would charge now (negative: credit), asked of
   * the provider without changing anything.
   */
  previewPlanChange(providerSubscriptionId: string, planId: PlanId, prorationDate: Date): Promise<PlanChangeQuote>;

  /**
   * Moves a paid subscription to another paid plan now, prorated as of `prorationDate` (a
   * preview's, so the charge is the one shown) or, without it, as of now.
   */
  changePlan(providerSubscriptionId: string, planId: PlanId, prorationDate?: Date): Promise<PaymentEvent[]>;

  /** Stops renewal: the subscription runs to the end of the period, then ends. */
  cancelAtPeriodEnd(providerSubscriptionId: string): Promise<PaymentEvent[]>;

  /** Ends a subscription today (account deletion, the portal's 'End subscription now'). */
  cancelNow(providerSubscriptionId: string): Promise<PaymentEvent[]>;

  /** Undoes cancelAtPeriodEnd before the period ends. */
  reactivate(providerSubscriptionId: string): Promise<PaymentEvent[]>;

  /**
   * Refunds a paid invoice in full, once: asked again for the same invoice, the provider
   * answers with the same refund. The answer carries it as an `invoice.refunded` event.
   */
  refund(invoice: {
    providerInvoiceId: string;
    paymentRef: string | null;
    customerId: string;
    amountCents: number;
    currency: string;
  }): Promise<PaymentEvent[]>;

  /**
   * Verifies a webhook's signature on the raw body and turns it into events, their
   * subscription state read fresh from the provider so that late or repeated events
   * cannot move it backwards. Throws WebhookSignatureError on a bad signature.
   * Events the product does not use come back as [].
   */
  parseWebhook(rawBody: Buffer, signature: string | undefined): Promise<PaymentEvent[]>;
}
