import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, MessageBody } from '@cloudvault/contract/common';
import {
  CheckoutSessionBody,
  CurrentSubscriptionQuery,
  CurrentSubscriptionResponse,
  PlanChangePreview,
  PlanChangePreviewQuery,
  PlansResponse,
  PortalSessionBody,
  SessionUrlResponse,
  SubscriptionResponse,
  UpgradeBody,
  UpgradeResponse,
} from '@cloudvault/contract/subscriptions';
import { WebhookSignatureError, type PaymentProvider } from '../../adapters/payments/payment-provider.ts';
import { caller } from '../../lib/auth.ts';
import { emptyBodyAsObject } from '../../lib/optional-body.ts';
import { badRequest, tooManyRequests } from '../../lib/errors.ts';
import type { BillingService } from './billing.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 502: ErrorBody };
/** Each checkout or portal session is a row (local) or a provider call: bounded per user. */
const sessionRateLimit = {
  rateLimit: {
    max: 100,
    timeWindow: '1 hour',
    errorResponseBuilder: (_request: unknown, context: { ttl: number }) => tooManyRequests(context.ttl / 1000),
  },
};

/** The catalogue is public: the Pricing page shows it to visitors. */
export function planRoutes(billing: BillingService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/subscriptions/plans', { schema: { tags: ['billing'], response: { 200: PlansResponse } } }, async () => ({
      plans: billing.plans(),
    }));
  };
}

/** The caller's own subscription and billing. */
export function billingRoutes(billing: BillingService): FastifyPluginAsyncTypebox {
  return async (signedIn) => {
    signedIn.addHook('onRequest', signedIn.requireUser);

    signedIn.get(
      '/subscriptions/current',
      { schema: { tags: ['billing'], querystring: CurrentSubscriptionQuery, response: { 200: CurrentSubscriptionResponse, ...errors } } },
      async (request) => billing.current(caller(request).userId, request.query.session_id),
    );

    signedIn.post(
      '/subscriptions/create-checkout-session',
      {
        schema: { tags: ['billing'], body: CheckoutSessionBody, response: { 200: SessionUrlResponse, ...errors } },
        config: sessionRateLimit,
      },
      async (request) => ({ sessionUrl: await billing.createCheckout(caller(request).userId, request.body.planType) }),
    );

    signedIn.post(
      '/subscriptions/create-portal-session',
      {
        schema: { tags: ['billing'], body: PortalSessionBody, response: { 200: SessionUrlResponse, ...errors } },
        config: sessionRateLimit,
        preValidation: emptyBodyAsObject,
      },
      async (request) => ({ sessionUrl: await billing.createPortal(caller(request).userId, request.body.returnUrl) }),
    );

    signedIn.post(
      '/subscriptions/upgrade',
      { schema: { tags: ['billing'], body: UpgradeBody, response: { 200: UpgradeResponse, ...errors } }, config: sessionRateLimit },
      async (request) => billing.upgrade(caller(request).userId, request.body.planId, request.body.prorationDate),
    );

    signedIn.get(
      '/subscriptions/preview',
      {
        schema: { tags: ['billing'], querystring: PlanChangePreviewQuery, response: { 200: PlanChangePreview, ...errors } },
        // Each preview is a provider call, as a change is.
        config: sessionRateLimit,
      },
      async (request) => billing.previewChange(caller(request).userId, request.query.planId),
    );

    signedIn.post(
      '/subscriptions/cancel',
      { schema: { tags: ['billing'], response: { 200: SubscriptionResponse, ...errors } } },
      async (request) => ({
        subscription: await billing.cancel(caller(request).userId),
      }),
    );

    signedIn.post(
      '/subscriptions/reactivate',
      { schema: { tags: ['billing'], response: { 200: SubscriptionResponse, ...errors } } },
      async (request) => ({
        subscription: await billing.reactivate(caller(request).userId),
      }),
    );
  };
}

/** POST /webhooks/stripe: the signature is checked on the raw body, so this scope keeps it raw. */
export function stripeWebhookRoutes(deps: { billing: BillingService; provider: PaymentProvider }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));

    app.post('/webhooks/stripe', { schema: { tags: ['billing'], response: { 200: MessageBody, 400: ErrorBody } } }, async (request) => {
      const signature = request.headers['stripe-signature'];
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      let events;
      try {
        events = await deps.provider.parseWebhook(raw, typeof signature === 'string' ? signature : undefined);
      } catch (error) {
        if (error instanceof WebhookSignatureError) throw badRequest('The webhook signature does not match.', 'BAD_SIGNATURE');
        throw error;
      }
      await deps.billing.applyEvents(events);
      return { message: 'Recorded' };
    });
  };
}
