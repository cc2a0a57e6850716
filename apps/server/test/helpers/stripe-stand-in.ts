import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the SDK sent it; form and query keys stay flat (`items[0][price]`). */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, string>;
  /** Stripe's `Idempotency-Key`, when the SDK sent one. */
  idempotencyKey: string | null;
}

/** A Stripe-shaped JSON object as the stand-in keeps and answers it. */
export type StripeObject = Record<string, any> & { id: string; object: string };

/** A local stand-in for the slice of the Stripe API the adapter uses, with state tests can set. */
export interface StripeStandIn {
  url: string;
  /** Every request received, oldest first. */
  requests(): RecordedRequest[];
  /** The newest request with this method and path; throws when there is none. */
  lastRequest(method: string, path: string): RecordedRequest;
  /** A copy of a stored object (customer, session, subscription, invoice…), to build webhook payloads from. */
  get(id: string): StripeObject;
  /** What a paid hosted checkout leaves behind: an active subscription and its paid first invoice, paid `at` (default now). */
  completeCheckout(sessionId: string, amountCents?: number, at?: Date): { subscription: StripeObject; invoice: StripeObject };
  /** Changes a subscription as Stripe would on its own (a failed renewal, a change made in the Dashboard). */
  updateSubscription(id: string, changes: { status?: string; cancel_at_period_end?: boolean; price?: string }): void;
  /** Forgets an object, so retrieving it answers 404. */
  remove(id: string): void;
  close(): Promise<void>;
}

const DAY = 24 * 60 * 60;

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, string>,
  ) {
    super(body.message);
  }
}

type Handler = (params: string[], request: RecordedRequest) => Record<string, unknown>;

/**
 * node:http on 127.0.0.1 and a random port answering as api.stripe.com does for the
 * routes below, from objects kept in memory so a retrieve after an update sees the update.
 * Unknown routes and ids answer 404 with Stripe's error body.
 */
export async function startStripeStandIn(): Promise<StripeStandIn> {
  const objects = new Map<string, StripeObject>();
  /** What each checkout session sells; Stripe keeps it as line items, not on the session. */
  const checkoutOrders = new Map<string, { price: string; subscriptionMetadata: Record<string, string> }>();
  const recorded: RecordedRequest[] = [];
  const now = () => Math.floor(Date.now() / 1000);

  function stored(id: string, kind: string): StripeObject {
    const object = objects.get(id);
    if (!object || object.object !== kind) {
      throw new StripeApiError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'id',
        message: `No such ${kind}: '${id}'`,
      });
    }
    return object;
  }

  function save(object: StripeObject): StripeObject {
    objects.set(object.id, object);
    return object;
  }

  /** `expand[0]=subscription.latest_invoice` replaces ids by their objects along the path, as Stripe does. */
  function expand(object: StripeObject, query: Record<string, string>): StripeObject {
    const copy = structuredClone(object);
    const paths = Object.entries(query)
      .filter(([key]) => key.startsWith('expand['))
      .map(([, path]) => path.split('.'));
    for (const path of paths) {
      let target: Record<string, any> | undefined = copy;
      for (const field of path) {
        const value: unknown = target?.[field];
        if (typeof value === 'string' && objects.has(value)) target![field] = structuredClone(objects.get(value));
        target = target?.[field];
      }
    }
    return copy;
  }

  const routes: Array<[method: string, path: RegExp, handler: Handler]> = [
    [
      'POST',
      /^\/v1\/customers$/,
      (_, { body }) =>
        save({
          id: newId('cus'),
          object: 'customer',
          created: now(),
          email: body.email ?? null,
          name: body.name ?? null,
          metadata: nested(body, 'metadata'),
          livemode: false,
        }),
    ],
    [
      'POST',
      /^\/v1\/checkout\/sessions$/,
      (_, { body }) => {
        const id = newId('cs_test');
        checkoutOrders.set(id, {
          price: body['line_items[0][price]'] ?? '',
          subscriptionMetadata: nested(body, 'subscription_data[metadata]'),
        });
        return save({
          id,
          object: 'checkout.session',
          created: now(),
          expires_at: now() + DAY,
          livemode: false,
          mode: body.mode,
          customer: body.customer ?? null,
          client_reference_id: body.client_reference_id ?? null,
          success_url: body.success_url,
          cancel_url: body.cancel_url,
          metadata: nested(body, 'metadata'),
          status: 'open',
          payment_status: 'unpaid',
          subscription: null,
          invoice: null,
          url: `https://checkout.stripe.com/c/pay/${id}`,
        });
      },
    ],
    ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, ([id], { query }) => expand(stored(id!, 'checkout.session'), query)],
    [
      'POST',
      /^\/v1\/billing_portal\/sessions$/,
      (_, { body }) => ({
        id: newId('bps'),
        object: 'billing_portal.session',
        created: now(),
        livemode: false,
        customer: body.customer,
        return_url: body.return_url ?? null,
        url: `https://billing.stripe.com/p/session/${newId('test')}`,
      }),
    ],
    ['GET', /^\/v1\/subscriptions\/([^/]+)$/, ([id], { query }) => expand(stored(id!, 'subscription'), query)],
    [
      'POST',
      /^\/v1\/subscriptions\/([^/]+)$/,
      ([id], { body }) => {
        const subscription = stored(id!, 'subscription');
        const item = subscription.items.data.find((candidate: StripeObject) => candidate.id === body['items[0][id]']);
        if (item && body['items[0][price]']) {
          // always_invoice: the prorated difference is invoiced (and here paid) at once.
          if (body.proration_behavior === 'always_invoice') {
            const lines = prorationLines(subscription, body);
            const total = lines.reduce((sum, line) => sum + line.amount, 0);
            const invoice = save({
              id: newId('in'),
              object: 'invoice',
              created: now(),
              livemode: false,
              customer: subscription.customer,
              currency: 'usd',
              total,
              amount_due: Math.max(0, total),
              amount_paid: Math.max(0, total),
              status: 'paid',
              billing_reason: 'subscription_update',
              parent: {
                type: 'subscription_details',
                quote_details: null,
                subscription_details: { subscription: subscription.id, metadata: {} },
              },
            });
            subscription.latest_invoice = invoice.id;
          }
          item.price = priceObject(body['items[0][price]']);
        }
        if (body.cancel_at_period_end !== undefined) subscription.cancel_at_period_end = body.cancel_at_period_end === 'true';
        return subscription;
      },
    ],
    [
      'POST',
      /^\/v1\/invoices\/create_preview$/,
      (_, { body }) => {
        const subscription = stored(body.subscription ?? '', 'subscription');
        const item = subscription.items.data[0];
        const prorations = prorationLines(subscription, body, 'subscription_details');
        // As Stripe may, the preview also shows the next period at the new price: not charged now.
        const nextPeriod = structuredClone(prorations[1]);
        if (nextPeriod) {
          nextPeriod.amount = unitAmount(nextPeriod.pricing.price_details.price);
          nextPeriod.period = { start: item.current_period_end, end: item.current_period_end + 30 * DAY };
          nextPeriod.parent.subscription_item_details.proration = false;
        }
        const lines = nextPeriod ? [...prorations, nextPeriod] : prorations;
        const total = lines.reduce((sum, line) => sum + line.amount, 0);
        return {
          id: `upcoming_${subscription.id}`,
          object: 'invoice',
          created: now(),
          livemode: false,
          customer: subscription.customer,
          currency: 'usd',
          total,
          subtotal: total,
          amount_due: Math.max(0, total),
          status: 'draft',
          lines: { object: 'list', data: lines, has_more: false, url: '/v1/invoices/upcoming/lines' },
          parent: {
            type: 'subscription_details',
            quote_details: null,
            subscription_details: { subscription: subscription.id, metadata: {} },
          },
        };
      },
    ],
    [
      'DELETE',
      /^\/v1\/subscriptions\/([^/]+)$/,
      ([id]) => {
        const subscription = stored(id!, 'subscription');
        subscription.status = 'canceled';
        return subscription;
      },
    ],
    [
      'GET',
      /^\/v1\/invoice_payments$/,
      (_, { query }) => {
        const payments = [...objects.values()].filter(
          (object) =>
            object.object === 'invoice_payment' && object.invoice === query.invoice && (!query.status || object.status === query.status),
        );
        return { object: 'list', data: payments, has_more: false, url: '/v1/invoice_payments' };
      },
    ],
    [
      'POST',
      /^\/v1\/refunds$/,
      (_, { body }) => {
        const intent = objects.get(body.payment_intent ?? '');
        if (intent?.object !== 'payment_intent') {
          throw new StripeApiError(400, {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'payment_intent',
            message: `No such payment_intent: '${body.payment_intent}'`,
          });
        }
        return save({
          id: newId('re'),
          object: 'refund',
          created: now(),
          payment_intent: intent.id,
          charge: null,
          amount: body.amount === undefined ? intent.amount : Number(body.amount),
          currency: intent.currency,
          reason: body.reason ?? null,
          status: 'succeeded',
          metadata: {},
        });
      },
    ],
  ];

  /**
   * Stripe's proration lines for a price change of the subscription's item, from the form
   * fields under `prefix` (`subscription_details` for a preview, none for an update): a credit
   * for the old price's share of the time left from proration_date (default now) and a charge
   * for the new one's, in cents, each rounded as Stripe rounds a line.
   */
  function prorationLines(subscription: StripeObject, form: Record<string, string>, prefix?: string): StripeObject[] {
    const field = (path: string[]) =>
      form[
        prefix
          ? `${prefix}[${path.join('][')}]`
          : `${path[0]}${path
              .slice(1)
              .map((part) => `[${part}]`)
              .join('')}`
      ];
    const item = subscription.items.data[0];
    const newPrice = field(['items', '0', 'price']);
    if (!newPrice) return [];
    const at = Number(field(['proration_date']) ?? now());
    const { current_period_start: start, current_period_end: end } = item;
    const remaining = Math.max(0, end - Math.max(at, start)) / (end - start);
    const line = (amount: number, price: string, proration: boolean, period: { start: number; end: number }) => ({
      id: newId('il'),
      object: 'line_item',
      amount,
      currency: 'usd',
      period,
      pricing: { type: 'price_details', price_details: { price, product: 'prod_test' }, unit_amount_decimal: null },
      parent: {
        type: 'subscription_item_details',
        invoice_item_details: null,
        subscription_item_details: {
          subscription: subscription.id,
          subscription_item: item.id,
          proration,
          proration_details: null,
          invoice_item: null,
        },
      },
    });
    return [
      line(-Math.round(unitAmount(item.price.id) * remaining), item.price.id, true, { start: at, end }),
      line(Math.round(unitAmount(newPrice) * remaining), newPrice, true, { start: at, end }),
    ];
  }

  const server = createServer(async (incoming, response) => {
    const request = await readRequest(incoming);
    recorded.push(request);
    let status = 200;
    let answer: unknown;
    try {
      const route = routes.find(([method, path]) => method === request.method && path.test(request.path));
      if (!route) {
        throw new StripeApiError(404, {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${request.method}: ${request.path}).`,
        });
      }
      answer = route[2](route[1].exec(request.path)!.slice(1), request);
    } catch (error) {
      // A bug in the stand-in still answers, as a 500 the test sees, instead of hanging the SDK.
      status = error instanceof StripeApiError ? error.status : 500;
      answer = { error: error instanceof StripeApiError ? error.body : { type: 'api_error', message: String(error) } };
    }
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
    response.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => [...recorded],
    lastRequest(method, path) {
      const found = recorded.findLast((request) => request.method === method && request.path === path);
      if (!found) throw new Error(`The stand-in received no ${method} ${path}`);
      return found;
    },
    get(id) {
      const object = objects.get(id);
      if (!object) throw new Error(`The stand-in holds no ${id}`);
      return structuredClone(object);
    },
    completeCheckout(sessionId, amountCents = 999, at) {
      const session = stored(sessionId, 'checkout.session');
      const order = checkoutOrders.get(sessionId)!;
      const start = at ? Math.floor(at.getTime() / 1000) : now();
      const subscriptionId = newId('sub');
      const intent = save({ id: newId('pi'), object: 'payment_intent', amount: amountCents, currency: 'usd', status: 'succeeded' });
      const invoice = save({
        id: newId('in'),
        object: 'invoice',
        created: start,
        livemode: false,
        customer: session.customer,
        amount_due: amountCents,
        amount_paid: amountCents,
        amount_remaining: 0,
        currency: 'usd',
        status: 'paid',
        billing_reason: 'subscription_create',
        hosted_invoice_url: `https://invoice.stripe.com/i/${newId('test')}`,
        parent: {
          type: 'subscription_details',
          quote_details: null,
          subscription_details: { subscription: subscriptionId, metadata: order.subscriptionMetadata },
        },
      });
      save({
        id: newId('inpay'),
        object: 'invoice_payment',
        created: start,
        livemode: false,
        invoice: invoice.id,
        amount_paid: amountCents,
        amount_requested: amountCents,
        currency: 'usd',
        is_default: true,
        status: 'paid',
        payment: { type: 'payment_intent', payment_intent: intent.id },
        status_transitions: { paid_at: start, canceled_at: null },
      });
      const subscription = save({
        id: subscriptionId,
        object: 'subscription',
        created: start,
        start_date: start,
        livemode: false,
        customer: session.customer,
        status: 'active',
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        currency: 'usd',
        metadata: order.subscriptionMetadata,
        latest_invoice: invoice.id,
        items: {
          object: 'list',
          has_more: false,
          url: `/v1/subscription_items?subscription=${subscriptionId}`,
          data: [
            {
              id: newId('si'),
              object: 'subscription_item',
              created: start,
              subscription: subscriptionId,
              quantity: 1,
              price: priceObject(order.price),
              current_period_start: start,
              current_period_end: start + 30 * DAY,
              metadata: {},
            },
          ],
        },
      });
      Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subscription.id, invoice: invoice.id });
      return { subscription: structuredClone(subscription), invoice: structuredClone(invoice) };
    },
    updateSubscription(id, { price, ...changes }) {
      const subscription = stored(id, 'subscription');
      Object.assign(subscription, changes);
      if (price) subscription.items.data[0].price = priceObject(price);
    },
    remove(id) {
      objects.delete(id);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

async function readRequest(incoming: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const url = new URL(incoming.url ?? '/', 'http://stand-in');
  return {
    method: incoming.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    body: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString())),
    idempotencyKey: typeof incoming.headers['idempotency-key'] === 'string' ? incoming.headers['idempotency-key'] : null,
  };
}

/** `metadata[userId]=u1` (under `prefix`) back into `{ userId: 'u1' }`. */
function nested(form: Record<string, string>, prefix: string): Record<string, string> {
  const entries = Object.entries(form)
    .filter(([key]) => key.startsWith(`${prefix}[`) && key.endsWith(']') && !key.slice(prefix.length + 1, -1).includes('['))
    .map(([key, value]) => [key.slice(prefix.length + 1, -1), value]);
  return Object.fromEntries(entries);
}

/** Monthly prices of the price ids the tests configure (STRIPE_PRICE_PRO, STRIPE_PRICE_PREMIUM), in cents. */
const UNIT_AMOUNTS: Record<string, number> = { price_pro: 999, price_premium: 1999 };

function unitAmount(priceId: string): number {
  const amount = UNIT_AMOUNTS[priceId];
  if (amount === undefined) throw new StripeApiError(400, { type: 'invalid_request_error', message: `No such price: '${priceId}'` });
  return amount;
}

function priceObject(id: string): StripeObject {
  return {
    id,
    object: 'price',
    active: true,
    currency: 'usd',
    type: 'recurring',
    unit_amount: UNIT_AMOUNTS[id] ?? null,
    recurring: { interval: 'month', interval_count: 1 },
  };
}

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}
