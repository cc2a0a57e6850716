import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './single-sign-on.service.ts';

describe('sameOriginPath (where a sign-in at the provider comes back to)', () => {
  it('keeps a path of this site, query included', () => {
    expect(sameOriginPath('/settings')).toBe('/settings');
    expect(sameOriginPath('/files/abc?sort=name')).toBe('/files/abc?sort=name');
  });

  it.each([
    ['nothing', undefined],
    ['an empty string', ''],
    ['another origin', 'https://evil.example/'],
    ['a protocol-relative address', '//evil.example/path'],
    ['a backslash browsers read as a slash', '/\\evil.example'],
    ['a relative path', 'settings'],
    ['the API', '/api/auth/oidc/start'],
    ['a space or a control character', '/files\nLocation: x'],
    ['more than 512 characters', `/${'a'.repeat(512)}`],
  ])('sends %s to the dashboard', (_case, next) => {
    expect(sameOriginPath(next)).toBe('/dashboard');
  });
});
