/**
 * What index.html's head script (vite-plugins/route-preloads.ts) shares with the app: where
 * the session's token is stored, where the API is, and where the head leaves the profile
 * request it starts before the entry has even downloaded (docs/decisions/0031-web-delivery.md,
 * "Requests"). The build imports this module too, so both sides read one definition.
 */

/** localStorage key of the session's bearer token. */
export const TOKEN_KEY = 'token';

/** The API's base path. */
export const API_BASE = '/api';

/** The start-up session check's request (GET; shared/spec/api.md). */
export const PROFILE_PATH = '/auth/profile';

/** The window property the head puts its profile request on: `{ token, response }`. */
export const EARLY_PROFILE_PROPERTY = '__cloudvaultProfile';

interface EarlyProfileRequest {
  /** The token the request carried. */
  token: string;
  response: Promise<Response>;
}

/**
 * The profile request the head started, if it carried `token`; taken once, so a later
 * session check (after signing in again, a refresh) asks the server anew.
 */
export function takeEarlyProfile(token: string): Promise<Response> | undefined {
  const holder = window as unknown as Record<string, EarlyProfileRequest | undefined>;
  const early = holder[EARLY_PROFILE_PROPERTY];
  if (!early) return undefined;
  delete holder[EARLY_PROFILE_PROPERTY];
  return early.token === token ? early.response : undefined;
}
