import { SignJWT, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createDownloadLinks, DOWNLOAD_LINK_LIFETIME_MS } from './download-links.ts';
import type { Download } from './download-responses.ts';

const SECRET = 'a-test-secret-of-at-least-32-characters';
const file = { name: 'a.txt', mimetype: 'text/plain', size: 1, sha256: 'ab', blob_key: 'key12345' };

function tokenOf(url: string): string {
  return url.slice('/api/downloads/'.length);
}

describe('createDownloadLinks', () => {
  it('hands a link to the handler its kind registered, with the target it was made for', async () => {
    let now = new Date('2026-11-24T10:00:00Z');
    const links = createDownloadLinks(SECRET, { now: () => now });
    const seen: unknown[] = [];
    links.serve('version', async (target) => {
      seen.push(target);
      return { type: 'file', file } satisfies Download;
    });
    const { url, expiresAt } = await links.create({ kind: 'version', id: 'v1', fileId: 'f1', userId: 'u1' });
    expect(expiresAt).toBe(new Date(now.getTime() + DOWNLOAD_LINK_LIFETIME_MS).toISOString());
    expect(await links.resolve(tokenOf(url))).toEqual({ type: 'file', file });
    expect(seen).toEqual([{ kind: 'version', id: 'v1', fileId: 'f1', userId: 'u1' }]);

    now = new Date(now.getTime() + DOWNLOAD_LINK_LIFETIME_MS + 1000);
    expect(await links.resolve(tokenOf(url))).toBeNull();
  });

  it('makes a new address for every link, even two in the same second for the same file', async () => {
    const links = createDownloadLinks(SECRET, { now: () => new Date('2026-11-24T10:00:00Z') });
    links.serve('file', async () => ({ type: 'file', file }));
    const first = await links.create({ kind: 'file', id: 'f1', userId: 'u1' });
    const second = await links.create({ kind: 'file', id: 'f1', userId: 'u1' });
    expect(second.url).not.toBe(first.url);
    expect(await links.resolve(tokenOf(second.url))).toEqual({ type: 'file', file });
  });

  it('refuses a kind no module serves, a forged token and one signed with another secret', async () => {
    const clock = { now: () => new Date('2026-11-24T10:00:00Z') };
    const links = createDownloadLinks(SECRET, clock);
    links.serve('file', async () => ({ type: 'file', file }));
    const unserved = await links.create({ kind: 'folder', id: 'd1', userId: 'u1' });
    expect(await links.resolve(tokenOf(unserved.url))).toBeNull();
    expect(await links.resolve('not-a-token')).toBeNull();
    const other = await createDownloadLinks(`${SECRET}-other`, clock).create({ kind: 'file', id: 'f1', userId: 'u1' });
    expect(await links.resolve(tokenOf(other.url))).toBeNull();
  });

  it('makes links jose verifies, and resolves links jose signed (those handed out before)', async () => {
    const start = new Date('2026-11-24T10:00:00Z');
    const joseKey = new TextEncoder().encode(SECRET);
    const links = createDownloadLinks(SECRET, { now: () => start });
    links.serve('file', async () => ({ type: 'file', file }));
    const { url } = await links.create({ kind: 'version', id: 'v1', fileId: 'f1', userId: 'u1' });
    const { payload } = await jwtVerify(tokenOf(url), joseKey, { audience: 'cloudvault-download', currentDate: start });
    expect(payload).toMatchObject({ kind: 'version', id: 'v1', fileId: 'f1', sub: 'u1' });

    const expiry = new Date(start.getTime() + DOWNLOAD_LINK_LIFETIME_MS);
    const jose = await new SignJWT({ kind: 'file', id: 'f1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setAudience('cloudvault-download')
      .setIssuedAt(start)
      .setExpirationTime(expiry)
      .sign(joseKey);
    expect(await links.resolve(jose)).toEqual({ type: 'file', file });
    const otherAudience = await new SignJWT({ kind: 'file', id: 'f1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setAudience('cloudvault-share-access')
      .setExpirationTime(expiry)
      .sign(joseKey);
    expect(await links.resolve(otherAudience)).toBeNull();
  });
});
