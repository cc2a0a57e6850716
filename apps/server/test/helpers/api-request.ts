import http from 'node:http';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, for malformed or oversized bodies. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /**
   * The client's source address: any 127.x.y.z reaches the server on 127.0.0.1 from
   * another address, so per-address limits are seen without a proxy.
   */
  from?: string;
}

/** One request over node:http from a chosen source address (fetch cannot pick one), answered as a Response. */
function requestFrom(localAddress: string, url: string, init: RequestInit): Promise<Response> {
  return new Promise((resolve, reject) => {
    const body = init.body as string | Buffer | undefined;
    // Node frames a DELETE's body only with a length (it sends no chunked DELETE).
    const headers = { ...(init.headers as Record<string, string>), ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) };
    const request = http.request(url, { method: init.method, headers, localAddress }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
        }
        const noBody = incoming.statusCode === 204 || incoming.statusCode === 304;
        resolve(new Response(noBody ? null : Buffer.concat(chunks), { status: incoming.statusCode ?? 0, headers }));
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** One request to a CloudVault server at `baseUrl`, its JSON answer parsed. */
export async function requestApi<T = any>(baseUrl: string, method: string, urlPath: string, { token, body, rawBody, headers = {}, from }: RequestOptions = {}): Promise<ApiResponse<T>> {
  const init: RequestInit = { method, headers: { ...headers } };
  const requestHeaders = init.headers as Record<string, string>;
  if (token) requestHeaders.authorization = `Bearer ${token}`;
  if (body !== undefined) {
    requestHeaders['content-type'] ??= 'application/json';
    init.body = JSON.stringify(body);
  } else if (rawBody !== undefined) {
    init.body = rawBody;
  }
  const response = from === undefined ? await fetch(`${baseUrl}${urlPath}`, init) : await requestFrom(from, `${baseUrl}${urlPath}`, init);
  const text = await response.text();
  let parsed: unknown = text;
  if (response.headers.get('content-type')?.includes('application/json') && text) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as any, text };
}
