import type { PaymentEvent, PaymentProvider } from '../../adapters/payments/payment-provider.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { BillingQueries, SubscriptionRow } from './billing.repository.ts';
import { refundDue } from './billing-rules.ts';

export interface FirstMonthRefundDeps {
  records: Pick<BillingQueries, 'findSubscription' | 'hasRefund' | 'firstPaidInvoice'>;
  provider: Pick<PaymentProvider, 'refund' | 'cancelNow'>;
  clock: Clock;
  log: Pick<ServiceLog, 'error'>;
  applyEvents(events: PaymentEvent[]): Promise<void>;
}

/**
 * docs/product.md#billing-rules: a cancellation in the first month refunds that month, once per customer
 * (a second subscription's first month is not refunded), and the refund ends the
 * subscription at once: otherwise subscribe, cancel, keep the month, repeat was free.
 */
export function createFirstMonthRefund(deps: FirstMonthRefundDeps) {
  const { records, provider, log } = deps;

  /** After the subscription was canceled at period end: refunds and ends it now when the rule says so. */
  return async function refundFirstPaymentIfDue(subscription: SubscriptionRow): Promise<void> {
    const latest = await records.findSubscription(subscription.provider_subscription_id);
    if (!refundDue(latest?.first_paid_at ?? null, deps.clock.now().toISOString())) return;
    if (await records.hasRefund(subscription.user_id)) return;
    const paid = await records.firstPaidInvoice(subscription.provider_subscription_id);
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
      log.error({ err: error, invoice: paid.provider_invoice_id }, 'refund failed');
      throw new AppError(
        502,
        'REFUND_FAILED',
        'Your subscription will end with this billing period, but the refund of your first payment failed. Please contact support.',
      );
    }
    await deps.applyEvents(events);
    // Our books ended the subscription with the refund; the provider stops it too. Should
    // that fail, it still ends at period end there (it was canceled at period end above).
    try {
      await deps.applyEvents(await provider.cancelNow(subscription.provider_subscription_id));
    } catch (error) {
      log.error(
        { err: error, subscription: subscription.provider_subscription_id },
        'ending a refunded subscription at the provider failed',
      );
    }
  };
}
