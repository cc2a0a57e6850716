// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, setUnauthorizedHandler } from '../../../lib/api-client';
import { login } from './login';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  localStorage.clear();
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('login', () => {
  it('reports wrong credentials as an error without the session-expired redirect', async () => {
    const handler = vi.fn();
    const unregister = setUnauthorizedHandler(handler);
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ error: 'Invalid e-mail or password' }), {
        status: 401,
        headers: { 'Content-Type': 'application/json' },
      }),
    );

    const error = await login({ email: 'ada@example.com', password: 'wrong-password' }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).serverMessage).toBe('Invalid e-mail or password');
    expect(handler).not.toHaveBeenCalled();
    unregister();
  });
});
