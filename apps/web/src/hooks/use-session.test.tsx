// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EARLY_PROFILE_PROPERTY } from '../lib/early-session';
import { endSession, signedOutRedirectPath, startSession } from '../lib/session';
import { useSession } from './use-session';

const user = {
  id: 'u1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  createdAt: '2025-01-01T00:00:00.000Z',
  plan: 'FREE' as const,
  storageUsed: 0,
  storageLimit: 524288000,
  twoFactorEnabled: false,
  emailVerified: true,
  role: 'user' as const,
  hasPassword: true,
};

const fetchMock = vi.fn<typeof fetch>();
let queryClient: QueryClient;

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  localStorage.clear();
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
});

afterEach(() => {
  cleanup();
  fetchMock.mockReset();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  delete (window as unknown as Record<string, unknown>)[EARLY_PROFILE_PROPERTY];
});

/** What index.html's head script leaves when a token is stored (vite-plugins/route-preloads.ts). */
function headSentProfile(token: string, response: Promise<Response>) {
  void response.catch(() => {});
  Object.assign(window, { [EARLY_PROFILE_PROPERTY]: { token, response } });
}

describe('useSession', () => {
  it('is signed out at once without a token, and asks nobody', () => {
    const { result } = renderHook(() => useSession(), { wrapper });
    expect(result.current.status).toBe('signedOut');
    expect(result.current.user).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('loads the profile when a token is stored', async () => {
    localStorage.setItem('token', 'tok');
    fetchMock.mockResolvedValue(json(200, { user }));
    const { result } = renderHook(() => useSession(), { wrapper });
    expect(result.current.status).toBe('loading');

    await waitFor(() => expect(result.current.status).toBe('signedIn'));
    expect(result.current.user?.firstName).toBe('Ada');
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/auth/profile');
  });

  it('drops a token the server refuses', async () => {
    localStorage.setItem('token', 'stale');
    fetchMock.mockResolvedValue(json(401, { error: 'Invalid token' }));
    const { result } = renderHook(() => useSession(), { wrapper });

    await waitFor(() => expect(result.current.status).toBe('signedOut'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(signedOutRedirectPath()).toBe('/login');
  });

  it('merges local changes, keeps the user when a refresh fails, and ends on sign-out', async () => {
    const { result } = renderHook(() => useSession(), { wrapper });
    startSession(queryClient, { token: 'tok', user });
    await waitFor(() => expect(result.current.status).toBe('signedIn'));
    expect(localStorage.getItem('token')).toBe('tok');

    result.current.updateUser({ firstName: 'Augusta' });
    await waitFor(() => expect(result.current.user?.firstName).toBe('Augusta'));

    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await result.current.refreshUser();
    expect(result.current.status).toBe('signedIn');
    expect(localStorage.getItem('token')).toBe('tok');

    endSession(queryClient, 'signOut');
    await waitFor(() => expect(result.current.status).toBe('signedOut'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(signedOutRedirectPath()).toBe('/');
  });

  describe('with the profile request the head started', () => {
    it('reads its answer instead of asking again', async () => {
      localStorage.setItem('token', 'tok');
      headSentProfile('tok', Promise.resolve(json(200, { user })));
      const { result } = renderHook(() => useSession(), { wrapper });

      await waitFor(() => expect(result.current.status).toBe('signedIn'));
      expect(result.current.user?.firstName).toBe('Ada');
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it('signs out when it was refused', async () => {
      localStorage.setItem('token', 'stale');
      headSentProfile('stale', Promise.resolve(json(401, { error: 'Invalid token' })));
      const { result } = renderHook(() => useSession(), { wrapper });

      await waitFor(() => expect(result.current.status).toBe('signedOut'));
      expect(localStorage.getItem('token')).toBeNull();
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it('asks again when it failed on the network', async () => {
      localStorage.setItem('token', 'tok');
      headSentProfile('tok', Promise.reject(new TypeError('Failed to fetch')));
      fetchMock.mockResolvedValue(json(200, { user }));
      const { result } = renderHook(() => useSession(), { wrapper });

      await waitFor(() => expect(result.current.status).toBe('signedIn'));
      expect(fetchMock).toHaveBeenCalledTimes(1);
      expect(fetchMock.mock.calls[0]![0]).toBe('/api/auth/profile');
    });

    it('ignores it when it carried another token, and uses it once only', async () => {
      localStorage.setItem('token', 'new');
      headSentProfile('old', Promise.resolve(json(200, { user: { ...user, firstName: 'Old' } })));
      fetchMock.mockResolvedValue(json(200, { user }));
      const { result } = renderHook(() => useSession(), { wrapper });

      await waitFor(() => expect(result.current.status).toBe('signedIn'));
      expect(result.current.user?.firstName).toBe('Ada');
      expect(fetchMock).toHaveBeenCalledTimes(1);
      expect(EARLY_PROFILE_PROPERTY in window).toBe(false);
    });
  });
});
