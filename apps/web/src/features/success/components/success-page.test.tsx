// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentSubscriptionResponse } from '@cloudvault/contract/subscriptions';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { SuccessPage } from './success-page';

/** The texts of the toasts showing now, newest first. */
const toastTexts = () => [...document.querySelectorAll('[data-rht-toaster] [role="status"]')].map((element) => element.textContent);

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  // react-hot-toast asks for prefers-reduced-motion; jsdom has no media queries.
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
});
afterEach(() => {
  act(() => toast.remove());
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  vi.useRealTimers();
});

const checkout: CurrentSubscriptionResponse = {
  plan: 'PRO',
  // A provider answer without a name or storage text: the screen's fallbacks show.
  planDetails: { name: '', storageFormatted: '', price: 9.99 },
  subscription: {
    status: 'active',
    planId: 'PRO',
    cancelAtPeriodEnd: false,
    currentPeriodEnd: '2026-12-22T10:00:00.000Z',
    nextBillingDate: null,
    createdAt: '2026-11-22T10:00:00.000Z',
  },
  storageUsed: 0,
  storageLimit: 100 * 1024 ** 3,
  filesCount: 0,
  foldersCount: 0,
  sharedCount: 0,
  downloadsCount: 0,
  fileTypes: { documents: 0, images: 0, videos: 0 },
  billingHistory: [
    {
      id: 'b1',
      invoiceId: 'in_local_0123456789abcdef',
      amount: 9.99,
      currency: 'usd',
      date: '2026-11-22T10:00:00.000Z',
      status: 'paid',
      invoiceUrl: null,
    },
  ],
  history: [],
};

describe('SuccessPage', () => {
  it('without a session id says so and goes to the dashboard after 1 s', async () => {
    vi.useFakeTimers();
    const { router } = renderWithProviders(<SuccessPage />, { route: '/success' });
    expect(screen.getByRole('heading', { name: 'Redirecting to dashboard...' })).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(999));
    expect(router.state.location.pathname).toBe('/success');
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('asks the server about the checkout and shows the welcome, details and receipt', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url.startsWith('/api/subscriptions/current')) return Response.json(checkout);
      if (url.startsWith('/api/subscriptions/plans')) return Response.json({ plans: [] });
      if (url.startsWith('/api/auth/profile')) return Response.json({ user: { id: 'u1', plan: 'PRO' } });
      return Response.json({ error: 'unexpected' }, { status: 404 });
    });
    renderWithProviders(<SuccessPage />, { route: '/success?session_id=cs_test_1' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to Premium' })).toBeTruthy();
    // The user is read again once the server has the checkout's result, not before.
    const urls = () => fetchMock.mock.calls.map(([url]) => String(url));
    await waitFor(() => expect(urls()).toContain('/api/auth/profile'));
    expect(urls().indexOf('/api/subscriptions/current?session_id=cs_test_1')).toBeLessThan(urls().indexOf('/api/auth/profile'));

    const details = screen.getByRole('region', { name: 'Subscription details' });
    expect(within(details).getByText('100GB')).toBeTruthy();
    expect(within(details).getByText('Active')).toBeTruthy();
    expect(within(details).queryByText('Next Billing')).toBeNull();
    const receipt = screen.getByRole('region', { name: 'Payment Receipt' });
    expect(within(receipt).getByText('#89abcdef')).toBeTruthy();
    expect(within(receipt).getByText('9.99 USD')).toBeTruthy();
    expect(within(receipt).getByText('Paid')).toBeTruthy();
    expect(within(receipt).queryByRole('link', { name: 'View Full Invoice' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Continue to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByRole('link', { name: 'Manage Subscription' }).getAttribute('href')).toBe('/subscription');
  });

  it('says when the subscription cannot be loaded', async () => {
    fetchMock.mockResolvedValue(Response.json({ error: 'provider down' }, { status: 502 }));
    renderWithProviders(
      <>
        <SuccessPage />
        <Toaster />
      </>,
      { route: '/success?session_id=cs_test_2' },
    );
    expect(await screen.findByRole('heading', { name: 'Failed to load subscription details' })).toBeTruthy();
    await waitFor(() => expect(toastTexts()).toEqual(['Failed to load subscription details']));
  });
});
