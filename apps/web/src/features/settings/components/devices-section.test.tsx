// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppPassword } from '@cloudvault/contract/app-passwords';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { DevicesSection } from './devices-section';

vi.mock('react-hot-toast', () => ({ default: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn() }) }));

const EMAIL = 'ada@example.com';
const SECRET = 'abcdef-ghijkm-npqrst-uvwxyz-234567';
let stored: AppPassword[] = [];
const created = () =>
  Response.json({ id: 'new', name: 'Laptop', password: SECRET, createdAt: '2026-11-24T12:00:00.000Z' }, { status: 201 });
let createAnswer: (body: Record<string, unknown>) => Response = created;
let twoFactorEnabled = false;
const fetchMock = vi.fn<typeof fetch>();
const calls = (method: string, path: string) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url) === path && (init?.method ?? 'GET') === method);

beforeEach(() => {
  window.localStorage.setItem('token', 'a-session');
  createAnswer = created;
  twoFactorEnabled = false;
  stored = [
    { id: 'used', name: 'Phone', createdAt: '2026-11-20T08:00:00.000Z', lastUsedAt: '2026-11-23T09:30:00.000Z' },
    { id: 'idle', name: 'Old NAS', createdAt: '2026-11-01T08:00:00.000Z', lastUsedAt: null },
  ];
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/auth/profile')
      return Response.json({ user: { id: 'u1', email: EMAIL, firstName: 'Ada', lastName: 'Lovelace', twoFactorEnabled } });
    if (url === '/api/user/app-passwords' && method === 'GET') return Response.json({ appPasswords: stored });
    if (url === '/api/user/app-passwords' && method === 'POST')
      return createAnswer(JSON.parse(String(init?.body)) as Record<string, unknown>);
    const revoked = /^\/api\/user\/app-passwords\/(.+)$/.exec(url);
    if (revoked && method === 'DELETE') {
      stored = stored.filter((entry) => entry.id !== revoked[1]);
      return new Response(null, { status: 204 });
    }
    return Response.json({ error: 'unexpected' }, { status: 404 });
  });
});
afterEach(() => {
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('Devices and app passwords', () => {
  it('lists the app passwords with when they were made and last used, Never when unused, and where to connect', async () => {
    renderWithProviders(<DevicesSection />);
    const list = await screen.findByRole('list', { name: 'Your app passwords' });
    const [phone, nas] = within(list).getAllByRole('listitem');
    expect(phone?.textContent).toMatch(/^Phone.*Created .*2026.* · Last used .*2026/);
    expect(phone?.textContent).not.toContain('Never');
    expect(nas?.textContent).toMatch(/^Old NAS.* · Last used: Never/);
    expect(screen.getByText(`${window.location.origin}/dav/`)).toBeTruthy();
    await screen.findByText(EMAIL);
  });

  it('explains a blank name without asking the server, asks for the account password, then shows a new one once with what to copy', async () => {
    const user = userEvent.setup();
    renderWithProviders(<DevicesSection />);
    await screen.findByRole('list', { name: 'Your app passwords' });
    await screen.findByText(EMAIL);
    await user.click(screen.getByRole('button', { name: 'Create app password' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a name for the app password');
    expect(calls('POST', '/api/user/app-passwords')).toHaveLength(0);

    await user.type(screen.getByLabelText('Device name'), '  Laptop  ');
    await user.click(screen.getByRole('button', { name: 'Create app password' }));
    const confirm = await screen.findByRole('dialog', { name: 'Create an app password for Laptop' });
    expect(within(confirm).queryByLabelText('Authentication code')).toBeNull();
    await user.click(within(confirm).getByRole('button', { name: 'Create' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe('Enter your password');
    expect(calls('POST', '/api/user/app-passwords')).toHaveLength(0);
    await user.type(within(confirm).getByLabelText('Your password'), 'correct horse');
    await user.click(within(confirm).getByRole('button', { name: 'Create' }));
    const dialog = await screen.findByRole('dialog', { name: 'App password for Laptop' });
    expect(JSON.parse(String(calls('POST', '/api/user/app-passwords')[0]?.[1]?.body))).toEqual({
      name: 'Laptop',
      password: 'correct horse',
    });
    expect(within(dialog).getByRole('textbox', { name: 'App password' })).toHaveProperty('value', SECRET);
    expect(within(dialog).getByRole('textbox', { name: 'Server address (WebDAV)' })).toHaveProperty(
      'value',
      `${window.location.origin}/dav/`,
    );
    expect(within(dialog).getByRole('textbox', { name: 'User name' })).toHaveProperty('value', EMAIL);
    expect(within(dialog).getByRole('button', { name: 'Copy App password' })).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Create app password' })));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says when the account holds as many app passwords as it may', async () => {
    createAnswer = () => Response.json({ error: 'limit', code: 'APP_PASSWORD_LIMIT' }, { status: 409 });
    const user = userEvent.setup();
    renderWithProviders(<DevicesSection />);
    await user.type(screen.getByLabelText('Device name'), 'One more');
    await user.click(screen.getByRole('button', { name: 'Create app password' }));
    const confirm = await screen.findByRole('dialog', { name: 'Create an app password for One more' });
    await user.type(within(confirm).getByLabelText('Your password'), 'correct horse');
    await user.click(within(confirm).getByRole('button', { name: 'Create' }));
    expect((await within(confirm).findByRole('alert')).textContent).toContain('You have 50 app passwords');
  });

  it('shows a wrong password under the field, and asks for a code too while two-factor sign-in is on', async () => {
    twoFactorEnabled = true;
    createAnswer = (body) =>
      body.password === 'correct horse'
        ? created()
        : Response.json({ error: 'That password is not right.', code: 'INCORRECT_PASSWORD' }, { status: 400 });
    const user = userEvent.setup();
    renderWithProviders(<DevicesSection />);
    await screen.findByText(EMAIL);
    await user.type(screen.getByLabelText('Device name'), 'Laptop');
    await user.click(screen.getByRole('button', { name: 'Create app password' }));
    const confirm = await screen.findByRole('dialog', { name: 'Create an app password for Laptop' });
    await user.type(within(confirm).getByLabelText('Your password'), 'wrong one');
    await user.type(within(confirm).getByLabelText('Authentication code'), '123456');
    await user.click(within(confirm).getByRole('button', { name: 'Create' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe('That password is not right.');
    await user.clear(within(confirm).getByLabelText('Your password'));
    await user.type(within(confirm).getByLabelText('Your password'), 'correct horse');
    await user.click(within(confirm).getByRole('button', { name: 'Create' }));
    await screen.findByRole('dialog', { name: 'App password for Laptop' });
    expect(JSON.parse(String(calls('POST', '/api/user/app-passwords')[1]?.[1]?.body))).toEqual({
      name: 'Laptop',
      password: 'correct horse',
      totpCode: '123456',
    });
  });

  it('revokes only after confirming, and focus moves to the name field', async () => {
    const user = userEvent.setup();
    renderWithProviders(<DevicesSection />);
    await user.click(await screen.findByRole('button', { name: 'Revoke Old NAS' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke Old NAS?' });
    expect(calls('DELETE', '/api/user/app-passwords/idle')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByText('Old NAS')).toBeNull());
    expect(calls('DELETE', '/api/user/app-passwords/idle')).toHaveLength(1);
    expect(screen.getByText('Phone')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Device name')));
  });
});
