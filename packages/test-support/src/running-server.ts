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
