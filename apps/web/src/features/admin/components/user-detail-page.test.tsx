// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminUserDetailResponse } from '@cloudvault/contract/admin';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { UserDetailPage } from './user-detail-page';

/** The texts of the toasts showing now, newest first. */
const toastTexts = () => [...document.querySelectorAll('[data-rht-toaster] [role="status"]')].map((element) => element.textContent);

const detail: AdminUserDetailResponse = {
  user: {
    id: 'u1',
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@example.com',
    createdAt: '2026-11-01T10:00:00.000Z',
    plan: 'FREE',
    storageUsed: 0,
    storageLimit: 500 * 1024 ** 2,
    twoFactorEnabled: false,
    emailVerified: true,
    role: 'user',
    hasPassword: true,
    status: 'active',
    lastSignInAt: null,
    filesCount: 0,
    suspendedAt: null,
    complimentary: false,
    planEndsAt: null,
  },
  subscription: null,
  complimentaryPlan: null,
  billingHistory: [],
  history: [],
  usage: { filesCount: 0, foldersCount: 0, trashedCount: 0, versionsCount: 0, sharesCount: 0, largestFileSizes: [] },
  devices: [],
};

const fetchMock = vi.fn<typeof fetch>();
const patches: unknown[] = [];
const deletions: unknown[] = [];
let refuseNextPatch = false;
let shownUser: AdminUserDetailResponse['user'] = detail.user;

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  // react-hot-toast asks for prefers-reduced-motion; jsdom has no media queries.
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (url.startsWith('/api/admin/audit')) return Response.json({ entries: [], nextCursor: null });
    if (url === '/api/admin/users/u1' && init?.method === 'PATCH') {
      patches.push(JSON.parse(String(init.body)));
      if (refuseNextPatch) {
        refuseNextPatch = false;
        return Response.json({ error: 'An operator cannot suspend their own account.', code: 'CANNOT_SUSPEND_SELF' }, { status: 409 });
      }
      return Response.json({ user: { ...detail.user, status: 'suspended' } });
    }
    if (url === '/api/admin/users/u1' && init?.method === 'DELETE') {
      deletions.push(JSON.parse(String(init.body)));
      return Response.json({ error: 'That password is not right.', code: 'INCORRECT_PASSWORD' }, { status: 400 });
    }
    if (url === '/api/admin/users/u1') return Response.json({ ...detail, user: shownUser });
    return Response.json({ error: 'unexpected' }, { status: 404 });
  });
});
afterEach(() => {
  act(() => toast.remove());
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  patches.length = 0;
  deletions.length = 0;
  shownUser = detail.user;
});

/** The page with the app's toasts beside it: what they say is what is asserted. */
const renderPage = () =>
  renderWithProviders(
    <>
      <Routes>
        <Route path="/admin/users/:userId" element={<UserDetailPage />} />
      </Routes>
      <Toaster />
    </>,
    { route: '/admin/users/u1' },
  );

describe('UserDetailPage', () => {
  it('asks for a reason before suspending, shows the server refusal in the dialog, then suspends and gives focus back', async () => {
    const user = userEvent.setup();
    refuseNextPatch = true;
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' });
    const suspend = screen.getByRole('button', { name: 'Suspend' });
    await user.click(suspend);
    const dialog = screen.getByRole('dialog', { name: 'Suspend this account?' });

    await user.click(within(dialog).getByRole('button', { name: 'Suspend account' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Say why: the audit log keeps the reason.');
    expect(patches).toEqual([]);

    await user.type(within(dialog).getByLabelText('Reason'), '  Chargeback  ');
    await user.click(within(dialog).getByRole('button', { name: 'Suspend account' }));
    await within(dialog).findByText('An operator cannot suspend their own account.');
    await waitFor(() => expect(toastTexts()).toEqual(['An operator cannot suspend their own account.']));

    await user.click(within(dialog).getByRole('button', { name: 'Suspend account' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(patches).toEqual([
      { suspended: true, reason: 'Chargeback' },
      { suspended: true, reason: 'Chargeback' },
    ]);
    await waitFor(() => expect(toastTexts()[0]).toBe('Grace Hopper is suspended.'));
    expect(document.activeElement).toBe(suspend);
  });

  it("offers no action on an operator's account", async () => {
    shownUser = { ...detail.user, role: 'admin' };
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' });
    expect(screen.getByText("Operators act on users only: the console offers no action on an operator's account.")).toBeTruthy();
    for (const name of ['Suspend', 'Grant a plan', 'Send password reset', 'Delete account'])
      expect(screen.queryByRole('button', { name })).toBeNull();
  });

  it("asks for the operator's password to delete, and shows a wrong one in the dialog", async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' });
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this account?' });
    await user.type(within(dialog).getByLabelText('Type grace@example.com to confirm'), 'grace@example.com');
    await user.type(within(dialog).getByLabelText('Reason'), 'Asked by e-mail');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(within(dialog).getByText('Enter your password to confirm.')).toBeTruthy();
    expect(deletions).toEqual([]);

    await user.type(within(dialog).getByLabelText('Your password'), 'not mine');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await within(dialog).findByText('That password is not right.');
    expect(deletions).toEqual([{ confirmEmail: 'grace@example.com', reason: 'Asked by e-mail', password: 'not mine' }]);
  });

  it('deletes only once the address is typed back', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' });
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this account?' });
    await user.type(within(dialog).getByLabelText('Type grace@example.com to confirm'), 'grace@example.org');
    await user.type(within(dialog).getByLabelText('Reason'), 'Asked by e-mail');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(within(dialog).getByText("Type the account's e-mail address exactly.")).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
  });
});
