import { Type, type Static } from 'typebox';
import { NullableString, Timestamp } from './common.ts';
import { Plan, PlanId } from './plans.ts';

/** incomplete (first payment not made) and unpaid (renewal retries gave up) grant no plan, but may still be paid. */
export const SubscriptionStatus = Type.Union([
  Type.Literal('active'),
  Type.Literal('past_due'),
  Type.Literal('canceled'),
  Type.Literal('incomplete'),
  Type.Literal('unpaid'),
]);
export type SubscriptionStatus = Static<typeof SubscriptionStatus>;

/** The caller's latest paid subscription. */
export const Subscription = Type.Object({
  status: SubscriptionStatus,
  planId: PlanId,
  cancelAtPeriodEnd: Type.Boolean(),
  currentPeriodEnd: Timestamp,
  /** When the next invoice is due; null once it will not renew. */
  nextBillingDate: NullableString(Type.String({ format: 'date-time' })),
  createdAt: Timestamp,
  /** Granted by an operator free of charge: it ends at currentPeriodEnd and is never billed (docs/decisions/0029). */
  complimentary: Type.Optional(Type.Boolean()),
});
export type Subscription = Static<typeof Subscription>;

export const BillingStatus = Type.Union([Type.Literal('paid'), Type.Literal('pending'), Type.Literal('failed')]);
export type BillingStatus = Static<typeof BillingStatus>;

/** An invoice, or a refund (negative amount). Amounts in the currency's major unit (dollars). */
export const BillingHistoryItem = Type.Object({
  id: Type.String(),
  invoiceId: Type.String(),
  amount: Type.Number(),
  /** ISO 4217, lower case as payment providers send it. */
  currency: Type.String(),
  date: Timestamp,
  status: BillingStatus,
  invoiceUrl: NullableString(Type.String()),
});
export type BillingHistoryItem = Static<typeof BillingHistoryItem>;

export const HistoryType = Type.Union([Type.Literal('upgrade'), Type.Literal('downgrade'), Type.Literal('cancel'), Type.Literal('other')]);
export type HistoryType = Static<typeof HistoryType>;

/** A change of plan or subscription state; planName is the plan moved to. */
export const HistoryEntry = Type.Object({
  type: HistoryType,
  planName: Type.String(),
  date: Timestamp,
});
export type HistoryEntry = Static<typeof HistoryEntry>;

export const PlansResponse = Type.Object({ plans: Type.Array(Plan) });
export type PlansResponse = Static<typeof PlansResponse>;

export const CurrentSubscriptionQuery = Type.Object({
  timestamp: Type.Optional(Type.String({ maxLength: 32 })),
  /** A checkout just finished: the server first asks the provider for it (the Success screen). */
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_-]+$' })),
});
export type CurrentSubscriptionQuery = Static<typeof CurrentSubscriptionQuery>;

export const CurrentSubscriptionResponse = Type.Object({
  plan: PlanId,
  planDetails: Type.Object({ name: Type.String(), storageFormatted: Type.String(), price: Type.Number() }),
  subscription: Type.Union([Subscription, Type.Null()]),
  storageUsed: Type.Integer(),
  storageLimit: Type.Integer(),
  filesCount: Type.Integer(),
  foldersCount: Type.Integer(),
  sharedCount: Type.Integer(),
  downloadsCount: Type.Integer(),
  fileTypes: Type.Object({ documents: Type.Integer(), images: Type.Integer(), videos: Type.Integer() }),
  /** Newest first. */
  billingHistory: Type.Array(BillingHistoryItem),
  /** Newest first. */
  history: Type.Array(HistoryEntry),
});
export type CurrentSubscriptionResponse = Static<typeof CurrentSubscriptionResponse>;

export const CheckoutSessionBody = Type.Object({ planType: PlanId });
export type CheckoutSessionBody = Static<typeof CheckoutSessionBody>;

export const PortalSessionBody = Type.Object({
  /** Where the portal's way back leads; only addresses on this server are followed. */
  returnUrl: Type.Optional(Type.String({ maxLength: 2048 })),
});
export type PortalSessionBody = Static<typeof PortalSessionBody>;

export const SessionUrlResponse = Type.Object({ sessionUrl: Type.String() });
export type SessionUrlResponse = Static<typeof SessionUrlResponse>;

export const UpgradeBody = Type.Object({
  planId: PlanId,
  /**
   * The `prorationDate` of the preview the user confirmed: the change is prorated as of that
   * moment, so what is charged is what was shown. Refused once older than the preview's lifetime.
   */
  prorationDate: Type.Optional(Timestamp),
});
export type UpgradeBody = Static<typeof UpgradeBody>;

export const PlanChangePreviewQuery = Type.Object({ planId: PlanId });
export type PlanChangePreviewQuery = Static<typeof PlanChangePreviewQuery>;

/** What a change between paid plans costs, before it is made (GET /subscriptions/preview). Amounts in the currency's major unit. */
export const PlanChangePreview = Type.Object({
  planId: PlanId,
  /** The new plan's monthly price. */
  price: Type.Number(),
  /** Charged now for the rest of the current period; negative is a credit (a downgrade). */
  amountNow: Type.Number(),
  /** ISO 4217, lower case as payment providers send it. */
  currency: Type.String(),
  /** The moment the proration is computed for (now); send it back as the upgrade's `prorationDate`. */
  prorationDate: Timestamp,
  /** Whole days left in the current period, counted up: what amountNow covers. */
  daysLeft: Type.Integer({ minimum: 0 }),
  /** The next renewal at the new price; null when the subscription ends at the period's end. */
  nextRenewal: Type.Union([Type.Object({ date: Timestamp, amount: Type.Number() }), Type.Null()]),
});
export type PlanChangePreview = Static<typeof PlanChangePreview>;

/** checkoutUrl when the caller must pay first; otherwise the subscription after the change. */
export const UpgradeResponse = Type.Object({
  checkoutUrl: Type.Optional(Type.String()),
  subscription: Type.Optional(Subscription),
});
export type UpgradeResponse = Static<typeof UpgradeResponse>;

export const SubscriptionResponse = Type.Object({ subscription: Subscription });
export type SubscriptionResponse = Static<typeof SubscriptionResponse>;
