// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, getToken, setToken, setUnauthorizedHandler } from './api-client';

const fetchMock = vi.fn<typeof fetch>();

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

let unregister: () => void = () => {};

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  localStorage.clear();
  // setToken also re-arms the one-time 401 redirect between tests.
  setToken('tok-1');
});

afterEach(() => {
  unregister();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('api client', () => {
  it('calls /api with JSON and the bearer token', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { ok: true }));

    await expect(api.post('/things', { name: 'x' }, { query: { a: 1, b: null } })).resolves.toEqual({ ok: true });

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/things?a=1');
    const headers = init?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok-1');
    expect(headers['Content-Type']).toBe('application/json');
    expect(init?.body).toBe('{"name":"x"}');
  });

  it('sends no Authorization header without a token', async () => {
    localStorage.clear();
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));

    await expect(api.get('/health')).resolves.toBeUndefined();
    expect((fetchMock.mock.calls[0]![1]?.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('turns a non-2xx answer into an ApiError carrying the server message, code and body', async () => {
    const body = { error: 'Folder name taken', code: 'NAME_TAKEN' };
    fetchMock.mockResolvedValue(jsonResponse(409, body));

    const error = await api.post('/user/folders', { name: 'a' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message: 'Folder name taken', code: 'NAME_TAKEN', body });
    expect(getToken()).toBe('tok-1');
  });

  it('on 401 removes the token and calls the handler once, however many requests failed', async () => {
    const handler = vi.fn();
    unregister = setUnauthorizedHandler(handler);
    fetchMock.mockImplementation(async () => jsonResponse(401, { error: 'Session expired' }));

    const results = await Promise.allSettled([api.get('/files'), api.get('/user/folders'), api.get('/user/dashboard')]);

    expect(results.every((result) => result.status === 'rejected' && result.reason instanceof ApiError)).toBe(true);
    expect(getToken()).toBeNull();
    expect(handler).toHaveBeenCalledTimes(1);

    // A new session re-arms it.
    setToken('tok-2');
    await api.get('/files').catch(() => {});
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('ignores a 401 to a request sent before the session ended or changed, or without one', async () => {
    const handler = vi.fn();
    unregister = setUnauthorizedHandler(handler);
    let answer!: (response: Response) => void;
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));

    const signedOut = api.get('/user/dashboard').catch((caught: unknown) => caught);
    localStorage.clear();
    answer(jsonResponse(401, { error: 'Session revoked' }));
    expect(await signedOut).toMatchObject({ status: 401 });
    expect(handler).not.toHaveBeenCalled();

    setToken('tok-1');
    const replaced = api.get('/user/dashboard').catch((caught: unknown) => caught);
    setToken('tok-2');
    answer(jsonResponse(401, { error: 'Session revoked' }));
    expect(await replaced).toMatchObject({ status: 401 });
    expect(handler).not.toHaveBeenCalled();
    expect(getToken()).toBe('tok-2');

    // Sent with no session at all, as a signed-in screen refetching while it unmounts.
    localStorage.clear();
    const anonymous = api.get('/user/dashboard').catch((caught: unknown) => caught);
    answer(jsonResponse(401, { error: 'Sign in first' }));
    expect(await anonymous).toMatchObject({ status: 401 });
    expect(handler).not.toHaveBeenCalled();
  });

  it('leaves a 401 to the caller when asked (the sign-in request)', async () => {
    const handler = vi.fn();
    unregister = setUnauthorizedHandler(handler);
    fetchMock.mockResolvedValue(jsonResponse(401, { error: 'Invalid e-mail or password' }));

    const error = await api
      .post('/auth/login', { email: 'a@b.co', password: 'x' }, { ignoreUnauthorized: true })
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 401, message: 'Invalid e-mail or password' });
    expect(handler).not.toHaveBeenCalled();
    expect(getToken()).toBe('tok-1');
  });

  it('lets network failures through as they are', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(api.get('/files')).rejects.toBeInstanceOf(TypeError);
  });
});
