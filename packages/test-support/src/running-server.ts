/**
 * A CloudVault server a test talks to over HTTP: the in-process one of the integration
 * tests or the server process of the end-to-end journeys. `url` is its base address.
 */
export interface RunningServer {
  url: string;
}

/** One JSON call to the API as a signed-in user; anything but a 2xx fails the test's set-up. */
export async function callApi<T>(server: RunningServer, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** An answer of the API whatever its status: the body parsed when it is JSON, and the text as sent. */
export interface ApiAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** One request to `path` (from `/api` on), answered whatever the status: for tests about refusals and limits. */
export async function request<T = unknown>(
  server: RunningServer,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  const body = response.headers.get('content-type')?.includes('application/json') && text ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, body: body as T, text };
}
