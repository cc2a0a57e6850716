import type { Plan } from '@cloudvault/contract/plans';
import { escapeHtml } from '../../lib/html.ts';

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
  main { width: min(28rem, calc(100vw - 2rem)); padding: 1.5rem; border: 1px solid #8884; border-radius: 0.75rem; }
  .banner { padding: 0.75rem; border-radius: 0.5rem; background: #fef3c7; color: #78350f; font-weight: 600; }
  .notice { padding: 0.75rem; border-radius: 0.5rem; background: #dcfce7; color: #14532d; }
  label { display: block; margin-top: 0.75rem; font-size: 0.875rem; }
  input { display: block; width: 100%; box-sizing: border-box; margin-top: 0.25rem; padding: 0.5rem; font: inherit; }
  .row { display: flex; gap: 0.75rem; }
  .actions { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; margin-top: 1.25rem; }
  button { padding: 0.6rem 1rem; border: 0; border-radius: 0.5rem; background: #2563eb; color: white; font: inherit; font-weight: 600; cursor: pointer; }
  button.secondary { background: #6b7280; }
  button.danger { background: #dc2626; }
  button:focus-visible, a:focus-visible { outline: 3px solid #93c5fd; outline-offset: 2px; }
  form { display: inline; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; }
  dt { color: GrayText; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · CloudVault</title>
<style>${STYLE}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

const money = (dollars: number) => `$${dollars.toFixed(2)}`;
const TEST_BANNER =
  '<p class="banner" role="note">Test mode: this is CloudVault\'s built-in test checkout. No card is charged and no money moves.</p>';

export function checkoutPage(input: { sessionId: string; plan: Plan; email: string; cancelUrl: string }): string {
  const { plan } = input;
  return page(
    'Test checkout',
    `<h1>Test checkout</h1>
${TEST_BANNER}
<p><strong>${escapeHtml(plan.name)}</strong> plan for ${escapeHtml(input.email)}: ${money(plan.price)} per month.</p>
<form method="post" action="/api/payments/local/checkout/${escapeHtml(input.sessionId)}/pay">
  <label>Card number (test)<input name="card" inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242"></label>
  <div class="row">
    <label>Expiry<input name="expiry" autocomplete="off" value="12 / 34"></label>
    <label>CVC<input name="cvc" inputmode="numeric" autocomplete="off" value="123"></label>
  </div>
  <div class="actions">
    <button type="submit">Pay ${money(plan.price)}</button>
    <a href="${escapeHtml(input.cancelUrl)}">Cancel</a>
  </div>
</form>`,
  );
}

export function portalPage(input: {
  sessionId: string;
  returnUrl: string;
  current: { planName: string; status: string; cancelAtPeriodEnd: boolean; periodEnd: string } | null;
  otherPlans: Plan[];
  notice: string | null;
}): string {
  const action = (path: string, label: string, extra = '', className = '') =>
    `<form method="post" action="/api/payments/local/portal/${escapeHtml(input.sessionId)}/${path}">${extra}<button type="submit"${className ? ` class="${className}"` : ''}>${escapeHtml(label)}</button></form>`;
  const { current } = input;
  const details = current
    ? `<dl>
  <dt>Plan</dt><dd>${escapeHtml(current.planName)}</dd>
  <dt>Status</dt><dd>${escapeHtml(current.status)}</dd>
  <dt>${current.cancelAtPeriodEnd ? 'Ends on' : 'Renews on'}</dt><dd>${escapeHtml(current.periodEnd.slice(0, 10))}</dd>
</dl>
<div class="actions">
  ${input.otherPlans.map((plan) => action('change', `Switch to ${plan.name}`, `<input type="hidden" name="planId" value="${escapeHtml(plan.id)}">`)).join('\n  ')}
  ${current.cancelAtPeriodEnd ? action('reactivate', 'Reactivate') : action('cancel', 'Cancel at period end', '', 'secondary')}
  ${action('end', 'End subscription now', '', 'danger')}
</div>`
    : '<p>You have no paid subscription any more.</p>';
  return page(
    'Billing portal (test)',
    `<h1>Billing portal (test)</h1>
${TEST_BANNER}
${input.notice ? `<p class="notice" role="status">${escapeHtml(input.notice)}</p>` : ''}
${details}
<p><a href="${escapeHtml(input.returnUrl)}">Return to CloudVault</a></p>`,
  );
}

export function invoicePage(input: {
  invoiceId: string;
  amount: number;
  currency: string;
  date: string;
  status: string;
  planName: string | null;
}): string {
  return page(
    'Invoice',
    `<h1>Invoice</h1>
${TEST_BANNER}
<dl>
  <dt>Invoice</dt><dd>${escapeHtml(input.invoiceId)}</dd>
  <dt>Date</dt><dd>${escapeHtml(input.date.slice(0, 10))}</dd>
  ${input.planName ? `<dt>Plan</dt><dd>${escapeHtml(input.planName)}</dd>` : ''}
  <dt>Amount</dt><dd>${escapeHtml(input.amount.toFixed(2))} ${escapeHtml(input.currency.toUpperCase())}</dd>
  <dt>Status</dt><dd>${escapeHtml(input.status)}</dd>
</dl>`,
  );
}

export function expiredPage(what: 'checkout' | 'portal' | 'invoice', backUrl: string): string {
  const text = {
    checkout: 'This checkout has expired or was already used.',
    portal: 'This billing portal link has expired. Open it again from Subscription & Billing.',
    invoice: 'There is no such invoice.',
  }[what];
  return page(
    'Not available',
    `<h1>Not available</h1><p>${escapeHtml(text)}</p><p><a href="${escapeHtml(backUrl)}">Back to CloudVault</a></p>`,
  );
}
