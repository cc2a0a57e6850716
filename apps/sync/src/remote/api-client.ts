/**
 * Everything the client says to the server goes through one ApiClient: it signs requests with
 * a session from POST /api/auth/device-session (exchanged again once when it expires), retries
 * what is safe to retry, and turns error bodies into RemoteError values.
 *
 * Connections: Node's fetch (undici) keeps connections alive and opens as many per origin as
 * requests in flight, so the transfers' 2-16 parallel requests need no dispatcher of their own.
 */
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errorFromResponse, RemoteError } from './remote-error.ts';

/** What `cloudvault login` keeps in the config dir: the app password, never the account password. */
export interface AppPasswordCredentials {
  /** The server's origin, e.g. `https://drive.example.com` (no trailing slash needed). */
  server: string;
  email: string;
  appPassword: string;
  /** The device name given at login (`--device`, default the host name). */
  device: string;
}

/** The user object of an AuthResponse, as far as the client reads it. */
export interface RemoteUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  [field: string]: unknown;
}

/** A request body fetch accepts (a string, bytes, a stream). */
export type RequestBody = NonNullable<RequestInit['body']>;

export interface ApiRequest {
  method?: string;
  /** Path under the server's origin, starting with `/api/`. */
  path: string;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | undefined>;
  /** A JSON body (sets Content-Type). */
  json?: unknown;
  /** Any other body, made afresh for each attempt (a retry or a new session re-sends it). */
  body?: () => RequestBody | Promise<RequestBody>;
  /**
   * A large body read from a Node stream, made afresh for each attempt and sent through
   * node:http with backpressure: Node's fetch holds a streamed request body (a 1 GiB PATCH
   * through fetch peaks at 1.1 GB of RSS, through node:http at ~150 MB).
   */
  stream?: () => Readable | Promise<Readable>;
  headers?: Record<string, string>;
  /** Retry on network errors too (GET, HEAD, PUT, DELETE are; a POST only when it says so). */
  idempotent?: boolean;
  /** Answer 3xx as they are (a download's 302 to the object store is followed without the bearer). */
  redirect?: 'follow' | 'manual';
  /** Statuses answered as they are instead of thrown (e.g. 206, 404 for an idempotent delete). */
  accept?: number[];
  signal?: AbortSignal;
}

/** A signed-in connection to one server. */
export interface ApiClient {
  readonly server: string;
  readonly device: string;
  /** Sends a request; answers a 2xx (or an `accept`ed status) response, throws RemoteError otherwise. */
  request(request: ApiRequest): Promise<Response>;
  /** Sends a request and reads its JSON answer. */
  json<T>(request: ApiRequest): Promise<T>;
}

/** Tuning for tests: how long to wait between retries and how long in all. */
export interface RetryPolicy {
  /** Total time spent waiting between attempts before the error is given up to the caller. */
  maxTotalMs: number;
  /** First backoff; doubles up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const DEFAULT_RETRY: RetryPolicy = {
  maxTotalMs: 60_000,
  initialDelayMs: 500,
  maxDelayMs: 10_000,
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    }),
};

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** The origin without a trailing slash, so paths join cleanly. */
const origin = (server: string) => server.replace(/\/+$/, '');

function urlOf(server: string, path: string, query: ApiRequest['query']): string {
  const url = new URL(origin(server) + path);
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
  return url.href;
}

/**
 * How long the server asked us to wait (`Retry-After` in seconds or as a date), or undefined.
 * Capped at 30 s: a longer wait is the caller's to decide after the error.
 */
function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  if (header === null) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), 30_000) : undefined;
}

/** A network failure (no answer at all) as a RemoteError the engine can report. */
function networkError(cause: unknown): RemoteError {
  const detail = cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
  return new RemoteError(0, 'NETWORK', `Could not reach the server: ${detail}`);
}

/** Statuses whose answer has no body (a Response refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** A node:http answer as a fetch Response, its body streamed as it arrives. */
function responseOf(answer: http.IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const status = answer.statusCode ?? 0;
  if (NULL_BODY_STATUSES.has(status)) answer.resume();
  const body = NULL_BODY_STATUSES.has(status) ? null : (Readable.toWeb(answer) as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: answer.statusMessage, headers });
}

/**
 * One attempt of a `stream` body through node:http(s): the source is piped to the request
 * (its pace set by the socket), and the answer comes as a Response once its head arrives.
 */
function sendStream(url: string, request: ApiRequest, headers: Record<string, string>, source: Readable): Promise<Response> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const outgoing = (target.protocol === 'https:' ? https : http).request(target, {
      method: request.method ?? 'POST',
      headers,
      signal: request.signal,
    });
    outgoing.once('response', (answer) => resolve(responseOf(answer)));
    // The socket can fail after the body is sent, while the answer is awaited.
    outgoing.on('error', reject);
    // An answer before the whole body (a refusal) ends the upload: the source's error is then moot.
    pipeline(source, outgoing).catch((error: unknown) => {
      source.destroy();
      reject(error as Error);
    });
  });
}

async function bodyOf(request: ApiRequest): Promise<{ body?: RequestBody; headers: Record<string, string> }> {
  if (request.json !== undefined) return { body: JSON.stringify(request.json), headers: { 'content-type': 'application/json' } };
  return { body: request.body ? await request.body() : undefined, headers: {} };
}

/**
 * One attempt without a session: the answer, or a RemoteError with status 0 when no answer came.
 * A stream body needs `duplex: 'half'` (undici), harmless for the others.
 */
async function send(server: string, request: ApiRequest, extraHeaders: Record<string, string>): Promise<Response> {
  if (request.stream) {
    const source = await request.stream();
    try {
      return await sendStream(urlOf(server, request.path, request.query), request, { ...request.headers, ...extraHeaders }, source);
    } catch (error) {
      if (request.signal?.aborted) throw error;
      throw networkError(error);
    }
  }
  const { body, headers } = await bodyOf(request);
  try {
    return await fetch(urlOf(server, request.path, request.query), {
      method: request.method ?? 'GET',
      headers: { ...headers, ...request.headers, ...extraHeaders },
      body,
      redirect: request.redirect ?? 'follow',
      signal: request.signal,
      duplex: 'half',
    } as RequestInit);
  } catch (error) {
    if (request.signal?.aborted) throw error;
    throw networkError(error);
  }
}

/**
 * Sends `request` with retries: 503 and 429 (nothing was done; waiting `Retry-After`) for any
 * method, network errors for idempotent ones, with a doubling backoff bounded by the policy's
 * total; then the last error.
 */
async function sendWithRetries(
  server: string,
  request: ApiRequest,
  headers: () => Promise<Record<string, string>>,
  retry: RetryPolicy,
): Promise<Response> {
  const method = (request.method ?? 'GET').toUpperCase();
  const idempotent = request.idempotent ?? IDEMPOTENT_METHODS.has(method);
  let waited = 0;
  let delay = retry.initialDelayMs;
  for (;;) {
    let wait: number;
    let failure: RemoteError | undefined;
    try {
      const response = await send(server, request, await headers());
      if (response.status !== 503 && response.status !== 429) return response;
      wait = retryAfterMs(response) ?? delay;
      failure = await errorFromResponse(response);
    } catch (error) {
      if (!(error instanceof RemoteError) || error.status !== 0 || !idempotent) throw error;
      failure = error;
      wait = delay;
    }
    if (waited + wait > retry.maxTotalMs) throw failure;
    await retry.sleep(wait, request.signal);
    waited += wait;
    delay = Math.min(delay * 2, retry.maxDelayMs);
  }
}

/** The session answer of /api/auth/login and /api/auth/device-session. */
interface AuthResponse {
  token: string;
  user: RemoteUser;
}

/**
 * Exchanges an app password for a session tied to it (POST /api/auth/device-session):
 * `cloudvault login` checks the password with it. Throws RemoteError (401 INVALID_CREDENTIALS).
 */
export async function checkAppPassword(credentials: AppPasswordCredentials, retry: RetryPolicy = DEFAULT_RETRY): Promise<AuthResponse> {
  const response = await sendWithRetries(
    credentials.server,
    {
      method: 'POST',
      path: '/api/auth/device-session',
      json: { email: credentials.email, password: credentials.appPassword, device: credentials.device },
    },
    async () => ({}),
    retry,
  );
  if (!response.ok) throw await errorFromResponse(response);
  return (await response.json()) as AuthResponse;
}

/**
 * An ApiClient signed in with an app password. The session is taken on the first request and
 * taken again once when the server answers 401 SESSION_EXPIRED (a session lives 7 days); a
 * second 401 is the caller's (the app password was deleted: log in again).
 */
export function createApiClient(credentials: AppPasswordCredentials, options: { retry?: Partial<RetryPolicy> } = {}): ApiClient {
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  let session: Promise<string> | undefined;
  const token = () => (session ??= checkAppPassword(credentials, retry).then((answer) => answer.token));

  async function request(apiRequest: ApiRequest): Promise<Response> {
    for (let exchanged = false; ; exchanged = true) {
      const current = token();
      let bearer: string;
      try {
        bearer = await current;
      } catch (error) {
        if (session === current) session = undefined;
        throw error;
      }
      const response = await sendWithRetries(credentials.server, apiRequest, async () => ({ authorization: `Bearer ${bearer}` }), retry);
      if (response.ok || apiRequest.accept?.includes(response.status)) return response;
      if (apiRequest.redirect === 'manual' && response.status >= 300 && response.status < 400) return response;
      const error = await errorFromResponse(response);
      if (error.status === 401 && error.code === 'SESSION_EXPIRED' && !exchanged) {
        if (session === current) session = undefined;
        continue;
      }
      throw error;
    }
  }

  return {
    server: origin(credentials.server),
    device: credentials.device,
    request,
    async json<T>(apiRequest: ApiRequest): Promise<T> {
      const response = await request(apiRequest);
      return (await response.json()) as T;
    },
  };
}

/** Answers a TOTP or recovery code, asked of the person at the terminal. */
export type AskTotp = () => Promise<string>;

/**
 * `cloudvault login` with the ACCOUNT password: signs in (asking for a two-factor code through
 * `askTotp` when the account needs one), makes an app password named `cloudvault on DEVICE`,
 * signs that short session out and answers the app password, which is all the client keeps.
 * Throws RemoteError: 401 INVALID_CREDENTIALS, TWO_FACTOR_REQUIRED when a code is needed and
 * there is no one to ask, 409 APP_PASSWORD_LIMIT.
 */
export async function loginWithAccountPassword(
  server: string,
  email: string,
  password: string,
  device: string,
  askTotp?: AskTotp,
): Promise<{ appPassword: string; user: RemoteUser }> {
  const signIn = async (totpCode?: string) => {
    const response = await send(server, { method: 'POST', path: '/api/auth/login', json: { email, password, totpCode } }, {});
    if (!response.ok) throw await errorFromResponse(response);
    return (await response.json()) as AuthResponse;
  };
  let totpCode: string | undefined;
  let auth: AuthResponse;
  try {
    auth = await signIn();
  } catch (error) {
    if (!(error instanceof RemoteError) || error.details.twoFactorRequired !== true || error.code !== 'TWO_FACTOR_REQUIRED') throw error;
    if (!askTotp) {
      throw new RemoteError(
        401,
        'TWO_FACTOR_REQUIRED',
        'This account uses two-factor sign-in: sign in interactively, or use an app password',
      );
    }
    totpCode = await askTotp();
    auth = await signIn(totpCode);
  }
  const bearer = { authorization: `Bearer ${auth.token}` };
  try {
    const created = await send(
      server,
      { method: 'POST', path: '/api/user/app-passwords', json: { name: `cloudvault on ${device}`, password, totpCode } },
      bearer,
    );
    if (!created.ok) throw await errorFromResponse(created);
    const { password: appPassword } = (await created.json()) as { password: string };
    return { appPassword, user: auth.user };
  } finally {
    // The account-password session is not needed again: the client signs in with the app password.
    await send(server, { method: 'POST', path: '/api/auth/logout' }, bearer).catch(() => undefined);
  }
}
