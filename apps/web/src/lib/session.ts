import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AuthResponse, ProfileResponse, User } from '@cloudvault/contract/accounts';
import { api, ApiError, clearToken, getToken, setToken, type RequestOptions } from './api-client';
import { forgetDeviceData } from './device-data';
import { PROFILE_PATH, takeEarlyProfile } from './early-session';
import { sessionKey } from './query-keys';

/**
 * The session outside React: the start-up check, and what signing in and out do to the
 * token and the query cache. Components read it through hooks/use-session.
 */

/** GET /api/auth/profile */
export function getProfile(options?: Pick<RequestOptions, 'ignoreUnauthorized' | 'signal' | 'answered'>): Promise<ProfileResponse> {
  return api.get<ProfileResponse>(PROFILE_PATH, options);
}

/**
 * The start-up profile: the answer to the request index.html's head sent with this token
 * while the app was still downloading (one round trip less before a signed-in page can
 * render), else a request sent now. When the head's request failed on the network, it
 * is sent again here rather than ending the session.
 */
async function startUpProfile(token: string, signal: AbortSignal): Promise<ProfileResponse> {
  const answered = await takeEarlyProfile(token)?.catch(() => undefined);
  return getProfile({ ignoreUnauthorized: true, signal, answered });
}

/**
 * The start-up session check: no token means signed out at once; with a token the
 * profile decides. A failed check only drops the token (and is logged); the route guards
 * then send the visitor where a signed-out visitor belongs.
 */
async function loadSession({ signal }: { signal: AbortSignal }): Promise<User | null> {
  const token = getToken();
  if (!token) return null;
  try {
    const { user } = await startUpProfile(token, signal);
    return user;
  } catch (error) {
    // No answer at all (offline, and the device keeps no profile): the session may be fine;
    // the token stays for the next start. An answer refusing it ends it here.
    if (!(error instanceof ApiError)) {
      console.warn('Session check failed: no network.', error);
      return null;
    }
    console.warn('Session check failed; signing out.', error);
    clearToken();
    forgetOwnData();
    return null;
  }
}

export function sessionQueryOptions() {
  return queryOptions({
    queryKey: sessionKey,
    queryFn: loadSession,
    // Without a token the answer is known synchronously: no loading flash for visitors.
    initialData: () => (getToken() ? undefined : null),
    // The session changes only through sign-in, sign-out, refreshUser and updateUser.
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/**
 * Where a signed-in page sends a visitor once the session is gone: the landing page after
 * choosing to sign out, the sign-in page otherwise (expired or revoked session).
 */
let signedOutByUser = false;

export function signedOutRedirectPath(): '/' | '/login' {
  return signedOutByUser ? '/' : '/login';
}

/**
 * What the device keeps for an account (views, thumbnails, offline files, shared-in files)
 * is that session's alone: a new session starts without it and an ended one leaves none.
 */
function forgetOwnData(options?: { keepSharedIn: boolean }): void {
  forgetDeviceData(options).catch((error: unknown) => console.warn('Could not clear the data kept on this device.', error));
}

/** Stores the token of a fresh sign-in or registration and makes its user current. */
export function startSession(queryClient: QueryClient, { token, user }: AuthResponse): void {
  setToken(token);
  forgetOwnData({ keepSharedIn: true });
  signedOutByUser = false;
  queryClient.setQueryData<User | null>(sessionKey, user);
}

/**
 * Forgets the session: token, user, and every cached answer that belonged to that user.
 * `reason` decides where signed-in pages redirect (see signedOutRedirectPath).
 */
export function endSession(queryClient: QueryClient, reason: 'signOut' | 'unauthorized'): void {
  clearToken();
  forgetOwnData();
  signedOutByUser = reason === 'signOut';
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== sessionKey[0] || query.queryKey[1] !== sessionKey[1],
  });
  queryClient.setQueryData<User | null>(sessionKey, null);
}
