/**
 * The one HTTP client of the web app. Every call to the API goes through here so that the
 * base path, the bearer token, error parsing and the reaction to 401 live in one place.
 */

import { noteAnswerSource } from './device-data';
import { API_BASE, TOKEN_KEY } from './early-session';
import { translatedServerError } from './server-errors';

/** A non-2xx answer from the API. `message` is the server's `error` text when it sent one. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    message: string,
    /** The server's stable error code, when it sent one. */
    readonly code: string | undefined,
    /** The parsed response body (JSON, text, or undefined when empty). */
    readonly body: unknown,
    /** The server's own `error` text; undefined when the body carried none. */
    readonly serverMessage: string | undefined,
  ) {
    super(message);
  }
}

/**
 * The message of a failed call for the user: the translation of its `code` in the current
 * language when there is one, else the server's `error` text, else undefined.
 */
export function serverErrorMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return translatedServerError(error.code) ?? error.serverMessage;
}

// --- Token storage -----------------------------------------------------------------------

/** The bearer token of the current session, kept in localStorage under `token`. */
export function getToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Stores the token of a new session; the next 401 will redirect to sign-in again. */
export function setToken(token: string): void {
  window.localStorage.setItem(TOKEN_KEY, token);
  unauthorizedHandled = false;
}

export function clearToken(): void {
  try {
    window.localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage unavailable (private mode, disabled): nothing was stored either.
  }
}

// --- 401 handling --------------------------------------------------------------------------

let unauthorizedHandler: (() => void) | null = null;
/** Several requests may fail with 401 at once; the app is sent to sign-in only once. */
let unauthorizedHandled = false;

/**
 * Registers what the app does when the API says the session is no longer valid (the app
 * clears its session state and routes to /login). Returns a function that unregisters it.
 */
export function setUnauthorizedHandler(handler: () => void): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

/**
 * A 401 ends the session only when the request carried the session still in use. One sent
 * before the user signed out (or signed in again), or sent with no session at all (a
 * signed-in screen refetching while it unmounts after sign-out), must not send the
 * visitor to sign-in: pages that need a session redirect by themselves. Also for requests
 * that cannot go through apiRequest (an upload over XMLHttpRequest).
 */
export function reportUnauthorized(sentToken: string | null): void {
  if (sentToken !== null && sentToken === getToken()) handleUnauthorized();
}

function handleUnauthorized(): void {
  clearToken();
  if (unauthorizedHandled) return;
  unauthorizedHandled = true;
  if (unauthorizedHandler) {
    unauthorizedHandler();
  } else if (window.location.pathname !== '/login') {
    // No router registered (should not happen in the app): fall back to a full load.
    window.location.assign('/login');
  }
}

// --- Requests ----------------------------------------------------------------------------

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, except FormData which is sent as multipart. */
  body?: unknown;
  /** Query parameters; null and undefined values are left out. */
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * A 401 from this request is an ordinary error for the caller instead of ending the
   * session (sign-in: wrong password; the start-up session check; sign-out).
   */
  ignoreUnauthorized?: boolean;
  /**
   * The answer to this very request, sent already with the current token (the head's early
   * profile request, lib/early-session.ts): read as if it had been sent here.
   */
  answered?: Response;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== null && value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

/** The full address of an API path ('/files/1/download' → '/api/files/1/download'). */
export function apiUrl(path: string, query?: RequestOptions['query']): string {
  return buildUrl(path, query);
}

async function parseBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function stringField(body: unknown, field: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[field];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Sends a request with the session's token; rejects with ApiError for a non-2xx answer. */
async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
  const { method = 'GET', body, query, signal, ignoreUnauthorized = false } = options;
  const headers: Record<string, string> = { Accept: accept, ...options.headers };
  // Read the token synchronously so that a caller may clear it right after starting a call.
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  let requestBody: BodyInit | undefined;
  if (body instanceof FormData) {
    requestBody = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    requestBody = JSON.stringify(body);
  }

  const response = options.answered ?? (await fetch(buildUrl(path, query), { method, headers, body: requestBody, signal }));
  if (method === 'GET') noteAnswerSource(response);
  if (!response.ok) {
    const data = await parseBody(response);
    if (response.status === 401 && !ignoreUnauthorized) reportUnauthorized(token);
    const serverMessage = stringField(data, 'error');
    throw new ApiError(
      response.status,
      serverMessage ?? `Request failed with status ${response.status}`,
      stringField(data, 'code'),
      data,
      serverMessage,
    );
  }
  return response;
}

/**
 * Calls the API and resolves with the parsed JSON body (undefined for an empty answer).
 * Rejects with ApiError for a non-2xx answer and with the fetch error when the network fails.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options, 'application/json');
  return (await parseBody(response)) as T;
}

/**
 * Small binary answers a page shows (a thumbnail), which <img src> cannot fetch itself
 * because the API wants the Authorization header. Errors as apiRequest. The browser's HTTP
 * cache still applies: the server's ETag and max-age decide whether the network is asked.
 */
export async function apiBlob(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<Blob> {
  const response = await send(path, options, 'image/*');
  return response.blob();
}

type Options = Omit<RequestOptions, 'method' | 'body'>;

/** Shorthands for apiRequest. */
export const api = {
  get: <T>(path: string, options?: Options) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Options) => apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Options) => apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Options) => apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Options) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
