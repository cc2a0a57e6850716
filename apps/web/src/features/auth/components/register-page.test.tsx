// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../lib/i18n';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { RegisterPage } from './register-page';

const fetchMock = vi.fn<typeof fetch>();

/** The texts of the toasts showing now, newest first. */
const toastTexts = () => [...document.querySelectorAll('[data-rht-toaster] [role="status"]')].map((element) => element.textContent);

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  // react-hot-toast asks for prefers-reduced-motion; jsdom has no media queries.
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
  localStorage.clear();
});

afterEach(async () => {
  act(() => toast.remove());
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

/** The page with the app's toasts beside it. */
const page = (
  <>
    <RegisterPage />
    <Toaster />
  </>
);

async function fillForm(password: string, confirmPassword: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('First name'), 'Ada');
  await user.type(screen.getByLabelText('Last name'), 'Lovelace');
  await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByLabelText('Confirm password'), confirmPassword);
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
}

describe('RegisterPage', () => {
  it('shows the password hint', () => {
    renderWithProviders(<RegisterPage />, { route: '/register' });
    expect(screen.getByText('Must be at least 6 characters long')).toBeTruthy();
    expect(screen.getByText("You'll start with 500MB of free storage!")).toBeTruthy();
  });

  it("fills in the address of a shared folder's invitation link", () => {
    renderWithProviders(<RegisterPage />, { route: '/register?email=friend%40example.com' });
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('friend@example.com');
  });

  it('refuses passwords that do not match without calling the server', async () => {
    renderWithProviders(<RegisterPage />, { route: '/register' });
    await fillForm('secret123', 'secret124');

    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toContain('Passwords do not match');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a password shorter than 6 characters without calling the server', async () => {
    renderWithProviders(<RegisterPage />, { route: '/register' });
    await fillForm('abc12', 'abc12');

    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toContain('Password must be at least 6 characters long');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('registers with the trimmed fields, stores the token and opens the dashboard', async () => {
    const user = {
      id: 'u1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      createdAt: '2025-01-01T00:00:00.000Z',
      plan: 'FREE',
      storageUsed: 0,
      storageLimit: 524288000,
      twoFactorEnabled: false,
      emailVerified: false,
      role: 'user',
      hasPassword: true,
    };
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ token: 'tok-1', user }), {
        status: 201,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    const { router } = renderWithProviders(<RegisterPage />, { route: '/register' });
    await fillForm('secret123', 'secret123');

    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/auth/register');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      password: 'secret123',
    });
    expect(localStorage.getItem('token')).toBe('tok-1');
  });

  it('says why registration is refused in the words of the locale files, the toast following a language switch', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ error: 'E-mail already registered', code: 'EMAIL_TAKEN' }), {
        status: 409,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    renderWithProviders(page, { route: '/register' });
    await fillForm('secret123', 'secret123');

    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toContain('An account with this e-mail already exists');
    await waitFor(() => expect(toastTexts()).toEqual(['An account with this e-mail already exists']));
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole('button', { name: 'Create Account' })).toHaveProperty('disabled', false);

    await act(() => i18n.changeLanguage('de'));
    await waitFor(() => expect(toastTexts()).toEqual(['Es gibt bereits ein Konto mit dieser E-Mail-Adresse']));
  });
});
