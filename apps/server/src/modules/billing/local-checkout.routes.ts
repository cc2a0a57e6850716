import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { PlanId } from '@cloudvault/contract/plans';
import type { LocalPaymentProvider } from '../../adapters/payments/local-payment-provider.ts';
import { AppError } from '../../lib/errors.ts';
import type { PlanCatalogue } from '../plans/plans.catalogue.ts';
import type { BillingRepository } from './billing.repository.ts';
import type { BillingService } from './billing.service.ts';
import { presentPlan } from './billing.presenter.ts';
import { checkoutPage, expiredPage, invoicePage, portalPage } from './local-checkout.pages.ts';

const SessionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }) });
const PortalAction = Type.Object({
  id: SessionParams.properties.id,
  action: Type.Union([Type.Literal('change'), Type.Literal('cancel'), Type.Literal('reactivate'), Type.Literal('end')]),
});
const DONE_NOTICES = {
  change: 'Your plan was changed.',
  cancel: 'Your subscription will end with this billing period.',
  reactivate: 'Your subscription will renew again.',
  end: 'Your subscription has ended. You are on the Free plan.',
  refunded: 'Your first payment was refunded and your subscription has ended. You are on the Free plan.',
} as const;

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(body);

/**
 * The local provider's hosted pages (docs/api.md#local-checkout): the test checkout, the portal and invoices.
 * No bearer token: the unguessable session or invoice id is the capability, as on a
 * hosted checkout. Form posts carry no data this server trusts beyond the plan picked.
 */
export function localCheckoutRoutes(deps: {
  local: LocalPaymentProvider;
  billing: BillingService;
  records: Pick<BillingRepository, 'findInvoice' | 'findSubscription'>;
  plans: PlanCatalogue;
  publicUrl: string;
  emailOf(userId: string): Promise<string>;
}): FastifyPluginAsyncTypebox {
  const { local, billing, plans, publicUrl } = deps;
  const home = `${publicUrl}/`;

  async function renderPortal(reply: FastifyReply, sessionId: string, status: number, notice: string | null) {
    const session = await local.openSession(sessionId, 'portal');
    if (!session) return html(reply, 404, expiredPage('portal', `${publicUrl}/subscription`));
    const subscription = await billing.activeSubscription(session.user_id);
    const current = subscription
      ? {
          planName: plans.get(subscription.plan_id).name,
          status: subscription.status,
          cancelAtPeriodEnd: subscription.cancel_at_period_end === 1,
          periodEnd: subscription.current_period_end,
        }
      : null;
    const otherPlans = plans
      .all()
      .filter((plan) => plan.price > 0 && plan.id !== subscription?.plan_id)
      .map(presentPlan);
    return html(
      reply,
      status,
      portalPage({ sessionId, returnUrl: session.return_url ?? `${publicUrl}/subscription`, current, otherPlans, notice }),
    );
  }

  return async (app) => {
    // Plain HTML form posts: only the portal's planId field is read.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.get('/payments/local/checkout/:id', { schema: { hide: true, params: SessionParams } }, async (request, reply) => {
      const session = await local.openSession(request.params.id, 'checkout');
      if (!session?.plan_id) return html(reply, 404, expiredPage('checkout', home));
      const plan = presentPlan(plans.get(session.plan_id));
      return html(
        reply,
        200,
        checkoutPage({ sessionId: session.id, plan, email: await deps.emailOf(session.user_id), cancelUrl: `${publicUrl}/pricing` }),
      );
    });

    app.post('/payments/local/checkout/:id/pay', { schema: { hide: true, params: SessionParams } }, async (request, reply) => {
      const events = await local.pay(request.params.id);
      if (events.length === 0) return html(reply, 404, expiredPage('checkout', home));
      await billing.applyEvents(events);
      return reply
        .code(303)
        .header('Location', `${publicUrl}/success?session_id=${encodeURIComponent(request.params.id)}`)
        .send();
    });

    app.get(
      '/payments/local/portal/:id',
      { schema: { hide: true, params: SessionParams, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 16 })) }) } },
      async (request, reply) => {
        const done = request.query.done as keyof typeof DONE_NOTICES | undefined;
        return renderPortal(reply, request.params.id, 200, done && done in DONE_NOTICES ? DONE_NOTICES[done] : null);
      },
    );

    app.post('/payments/local/portal/:id/:action', { schema: { hide: true, params: PortalAction } }, async (request, reply) => {
      const { id, action } = request.params;
      let done: keyof typeof DONE_NOTICES = action;
      const session = await local.openSession(id, 'portal');
      if (!session) return html(reply, 404, expiredPage('portal', `${publicUrl}/subscription`));
      try {
        if (action === 'change') {
          const planId = (request.body as { planId?: string } | undefined)?.planId;
          if (!plans.all().some((plan) => plan.id === planId && plan.price > 0))
            return renderPortal(reply, id, 400, 'Choose one of the plans shown.');
          await billing.upgrade(session.user_id, planId as PlanId);
        } else if (action === 'cancel') {
          // A cancellation in the first month is refunded and ends the subscription at once.
          if ((await billing.cancel(session.user_id)).status === 'canceled') done = 'refunded';
        } else if (action === 'reactivate') {
          await billing.reactivate(session.user_id);
        } else {
          const subscription = await billing.activeSubscription(session.user_id);
          if (!subscription) return renderPortal(reply, id, 400, 'There is no paid subscription to end.');
          await billing.applyEvents(await local.cancelNow(subscription.provider_subscription_id));
        }
      } catch (error) {
        if (error instanceof AppError && error.status < 500) return renderPortal(reply, id, error.status, error.message);
        throw error;
      }
      return reply
        .code(303)
        .header('Location', `/api/payments/local/portal/${encodeURIComponent(id)}?done=${done}`)
        .send();
    });

    app.get('/payments/local/invoices/:id', { schema: { hide: true, params: SessionParams } }, async (request, reply) => {
      const invoice = await deps.records.findInvoice(request.params.id);
      if (!invoice) return html(reply, 404, expiredPage('invoice', home));
      const subscription = invoice.provider_subscription_id
        ? await deps.records.findSubscription(invoice.provider_subscription_id)
        : undefined;
      return html(
        reply,
        200,
        invoicePage({
          invoiceId: invoice.provider_invoice_id,
          amount: Number(invoice.amount_cents) / 100,
          currency: invoice.currency,
          date: invoice.created_at,
          status: invoice.status,
          planName: subscription ? plans.get(subscription.plan_id).name : null,
        }),
      );
    });
  };
}
