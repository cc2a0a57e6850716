// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Plan } from '@cloudvault/contract/plans';
import type { CurrentSubscriptionResponse } from '@cloudvault/contract/subscriptions';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { Toaster } from 'react-hot-toast';
import { SubscriptionPage } from './subscription-page';

/** The analytics feature is composed in by the app; these tests leave it out. */
const NoAnalytics = () => null;

/** The page with the app's toasts beside it: what they say is what is asserted. */
const page = (
  <>
    <SubscriptionPage analytics={NoAnalytics} />
    <Toaster />
  </>
);

const GB = 1024 ** 3;
const MB = 1024 ** 2;
const plan = (id: Plan['id'], name: string, price: number, storageLimit: number, extra: Partial<Plan> = {}): Plan => ({
  id,
  name,
  price,
  description: `${name} plan`,
  features: Array.from({ length: 7 }, (_, index) => `${name} feature ${index + 1}`),
  popular: id === 'PRO',
  storageLimit,
  maxFileSize: 100 * MB,
  prioritySupport: false,
  maxConcurrentUploads: 3,
  ...extra,
});
const plans = [
  plan('FREE', 'Free', 0, 500 * MB),
  plan('PRO', 'Pro', 9.99, 100 * GB, { prioritySupport: true, maxConcurrentUploads: 10 }),
  plan('PREMIUM', 'Business', 19.99, 1024 * GB, { prioritySupport: true, maxFileSize: null, maxConcurrentUploads: null }),
];

function current(overrides: Partial<CurrentSubscriptionResponse> = {}): CurrentSubscriptionResponse {
  return {
    plan: 'FREE',
    planDetails: { name: 'Free', storageFormatted: '500 MB', price: 0 },
    subscription: null,
    storageUsed: 300 * MB,
    storageLimit: 500 * MB,
    filesCount: 3,
    foldersCount: 1,
    sharedCount: 0,
    downloadsCount: 0,
    fileTypes: { documents: 1, images: 2, videos: 0 },
    billingHistory: [],
    history: [],
    ...overrides,
  };
}

const pro = (subscription: Partial<NonNullable<CurrentSubscriptionResponse['subscription']>> = {}) =>
  current({
    plan: 'PRO',
    planDetails: { name: 'Pro', storageFormatted: '100 GB', price: 9.99 },
    storageUsed: 10 * GB,
    storageLimit: 100 * GB,
    subscription: {
      status: 'active',
      planId: 'PRO',
      cancelAtPeriodEnd: false,
      currentPeriodEnd: '2026-12-22T10:00:00.000Z',
      nextBillingDate: '2026-12-22T10:00:00.000Z',
      createdAt: '2026-11-22T10:00:00.000Z',
      ...subscription,
    },
    billingHistory: [
      {
        id: 'b1',
        invoiceId: 'in_0123456789abcdef',
        amount: 9.99,
        currency: 'usd',
        date: '2026-11-22T10:00:00.000Z',
        status: 'paid',
        invoiceUrl: '/invoice/1',
      },
      {
        id: 'b2',
        invoiceId: 'in_pending_000002',
        amount: 9.99,
        currency: 'usd',
        date: '2026-10-22T10:00:00.000Z',
        status: 'pending',
        invoiceUrl: null,
      },
      {
        id: 'b3',
        invoiceId: 'in_failed_0000003',
        amount: 9.99,
        currency: 'usd',
        date: '2026-09-22T10:00:00.000Z',
        status: 'failed',
        invoiceUrl: null,
      },
    ],
  });

const fetchMock = vi.fn<typeof fetch>();
let answer: CurrentSubscriptionResponse | 'fail' = current();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  // react-hot-toast asks for prefers-reduced-motion; jsdom has no media queries.
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (url.startsWith('/api/subscriptions/plans')) return Response.json({ plans });
    // A plan change reads the user again.
    if (url.startsWith('/api/auth/profile'))
      return Response.json({ user: { id: 'u1', firstName: 'Ada', lastName: 'Lovelace', plan: 'PREMIUM' } });
    if (url.startsWith('/api/subscriptions/current')) {
      return answer === 'fail' ? Response.json({ error: 'boom' }, { status: 500 }) : Response.json(answer);
    }
    if (url.startsWith('/api/subscriptions/preview?planId=PREMIUM'))
      return Response.json({
        planId: 'PREMIUM',
        price: 19.99,
        amountNow: 6.5,
        currency: 'usd',
        prorationDate: '2026-12-02T10:00:00.000Z',
        daysLeft: 20,
        nextRenewal: { date: '2026-12-22T10:00:00.000Z', amount: 19.99 },
      });
    if (url.startsWith('/api/subscriptions/preview?planId=PRO'))
      return Response.json({
        planId: 'PRO',
        price: 9.99,
        amountNow: -0.33,
        currency: 'usd',
        prorationDate: '2026-12-21T10:00:00.000Z',
        daysLeft: 1,
        nextRenewal: null,
      });
    if (url.startsWith('/api/subscriptions/upgrade') && init?.method === 'POST') {
      answer = pro({ planId: 'PREMIUM' });
      return Response.json({ subscription: answer.subscription });
    }
    return Response.json({ error: 'unexpected' }, { status: 404 });
  });
});
afterEach(() => {
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  answer = current();
});

describe('SubscriptionPage', () => {
  it('shows a Free user the Free status, Upgrade Plan without Cancel, and the recommendation from 50 %', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SubscriptionPage analytics={NoAnalytics} />, { route: '/subscription' });
    await screen.findByRole('heading', { level: 2, name: 'Free' });
    expect(screen.getByText('Status:', { exact: false }).parentElement?.textContent).toBe('Status: Free');
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Upgrade Recommended' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upgrade to Pro' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Upgrade Plan' }));
    const dialog = screen.getByRole('dialog', { name: 'Upgrade Your Plan' });
    const choices = within(dialog).getAllByRole('listitem', { name: /^(Free|Pro|Business)$/ });
    expect(choices.map((choice) => choice.getAttribute('aria-label'))).toEqual(['Pro', 'Business']);
    expect(within(choices[0]!).getAllByText(/^Pro feature/)).toHaveLength(5);
    expect(within(dialog).getByRole('button', { name: 'Upgrade to Business' }).textContent).toBe('Upgrade');
  });

  it("shows a plan granted by hand as complimentary until its end, without the paid plan's Reactivate or Cancel", async () => {
    answer = pro({ complimentary: true, cancelAtPeriodEnd: true, nextBillingDate: null, currentPeriodEnd: '2099-12-31T23:59:59.000Z' });
    renderWithProviders(<SubscriptionPage analytics={NoAnalytics} />, { route: '/subscription' });
    await screen.findByText('Your Pro plan is complimentary', { exact: false });
    expect(screen.getByText('Your Pro plan is complimentary', { exact: false }).textContent).toContain('Dec 31, 2099');
    expect(within(screen.getByRole('region', { name: 'Pro' })).getByText('Complimentary')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reactivate' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
    expect(screen.queryByText('Subscription ends on', { exact: false })).toBeNull();
  });

  it('shows the ending notice instead of Cancel, and plan cards by their relation to the current plan', async () => {
    const user = userEvent.setup();
    answer = pro({ cancelAtPeriodEnd: true, nextBillingDate: null });
    renderWithProviders(<SubscriptionPage analytics={NoAnalytics} />, { route: '/subscription' });
    await screen.findByText('Subscription ends on Dec 22, 2026');
    expect(screen.getByRole('button', { name: 'Reactivate' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Upgrade Plan' })).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'Plans' }));
    const card = (name: string) => within(screen.getByRole('list', { name: 'Plans' })).getByRole('listitem', { name });
    expect(within(card('Free')).getByRole('button', { name: 'Downgrade to Free' })).toBeTruthy();
    expect((within(card('Pro')).getByRole('button', { name: 'Current Plan' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(card('Pro')).getByRole('button', { name: 'Manage Billing' })).toBeTruthy();
    expect(within(card('Pro')).getByText('Most Popular')).toBeTruthy();
    expect(within(card('Business')).getByRole('button', { name: 'Upgrade to Business' })).toBeTruthy();

    // The first 6 features, and a toggle for the rest.
    expect(within(card('Business')).getAllByText(/^Business feature/)).toHaveLength(6);
    await user.click(within(card('Business')).getByRole('button', { name: 'Show all 7 features' }));
    expect(within(card('Business')).getAllByText(/^Business feature/)).toHaveLength(7);

    const table = screen.getByRole('table');
    expect(within(table).getAllByText('Unlimited')).toHaveLength(2);
    expect(within(table).getAllByText('Yes')).toHaveLength(2);
    expect(within(table).getAllByText('No')).toHaveLength(1);
  });

  it('colours billing history by status and links invoices', async () => {
    const user = userEvent.setup();
    answer = pro();
    renderWithProviders(<SubscriptionPage analytics={NoAnalytics} />, { route: '/subscription' });
    await screen.findByRole('button', { name: 'Cancel subscription' });
    await user.click(screen.getByRole('tab', { name: 'Billing' }));
    expect(screen.getByText('Paid').className).toContain('green');
    expect(screen.getByText('Pending').className).toContain('yellow');
    expect(screen.getByText('Failed').className).toContain('red');
    expect(screen.getAllByText('9.99 USD')).toHaveLength(3);
    expect(screen.getByRole('link', { name: 'View invoice #89abcdef' }).getAttribute('href')).toBe('/invoice/1');
    expect(screen.getAllByRole('link', { name: /View invoice/ })).toHaveLength(1);
  });

  it('changes plan without a checkout once the previewed price is confirmed: the data is read again and the change announced', async () => {
    const user = userEvent.setup();
    answer = pro();
    renderWithProviders(page, { route: '/subscription' });
    await screen.findByRole('button', { name: 'Cancel subscription' });
    await user.click(screen.getByRole('tab', { name: 'Plans' }));
    await user.click(screen.getByRole('button', { name: 'Upgrade to Business' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Business' });
    await within(dialog).findByText('$6.50');
    expect(dialog.textContent).toContain('Charged now$6.50 (prorated for the 20 days left)');
    expect(dialog.textContent).toContain('Next renewalDec 22, 2026: $19.99');
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/subscriptions/upgrade')).toBe(false);

    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Subscription updated successfully!');
    const upgrade = fetchMock.mock.calls.find(([url]) => String(url) === '/api/subscriptions/upgrade');
    expect(JSON.parse(String(upgrade?.[1]?.body))).toEqual({ planId: 'PREMIUM', prorationDate: '2026-12-02T10:00:00.000Z' });
    expect(fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/subscriptions/current')).length).toBeGreaterThan(1);
  });

  it('shows a downgrade between paid plans as a credit, and Cancel changes nothing', async () => {
    const user = userEvent.setup();
    answer = current({
      ...pro({ planId: 'PREMIUM', cancelAtPeriodEnd: true, nextBillingDate: null }),
      plan: 'PREMIUM',
      planDetails: { name: 'Business', storageFormatted: '1 TB', price: 19.99 },
      storageLimit: 1024 * GB,
    });
    renderWithProviders(page, { route: '/subscription' });
    await screen.findByRole('heading', { level: 2, name: 'Business' });
    await user.click(screen.getByRole('tab', { name: 'Plans' }));
    await user.click(screen.getByRole('button', { name: 'Downgrade to Pro' }));
    const dialog = await screen.findByRole('dialog', { name: 'Downgrade to Pro' });
    await within(dialog).findByText('$0.33');
    expect(dialog.textContent).toContain('Credited now$0.33 (prorated for the 1 day left)The credit is taken off your next invoices.');
    expect(dialog.textContent).toContain('Your subscription ends on Dec 22, 2026 and does not renew.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/subscriptions/upgrade')).toBe(false);
  });

  it('announces updated=true and a billing portal return once, then removes both from the address', async () => {
    const { router } = renderWithProviders(page, {
      route: '/subscription?updated=true&session_id=ps_1',
    });
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findAllByText('Subscription updated successfully!')).toHaveLength(1);
    expect(await screen.findAllByText('Billing portal session completed!')).toHaveLength(1);
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('says when the subscription cannot be loaded', async () => {
    answer = 'fail';
    renderWithProviders(page, { route: '/subscription' });
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to load subscription data');
    await waitFor(() => expect(screen.getAllByText('Failed to load subscription data')).toHaveLength(2));
  });
});
