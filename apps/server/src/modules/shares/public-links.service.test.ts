import { describe, expect, it } from 'vitest';
import { createPublicLinksService } from './public-links.service.ts';
import { createShareTokens, SHARE_ACCESS_LIFETIME_MS } from './share-tokens.ts';
import type { ShareRow } from './shares.repository.ts';
import { fakeAccounts, fakeClock, fakeDrive, fakeLimiter, fakePasswords, fakeSharesRepository, settingsWith } from './shares.fakes.ts';
import { refusal } from '../../lib/refusal.testing.ts';

const HOUR = 60 * 60 * 1000;

/**
 * Grace Hopper owns Shared/{top, Inner/{deep, Empty/}} beside Private/{secret} and a file at
 * her root; a stranger owns a file of their own. Links are made as the owner's service stores them.
 */
function setUp() {
  const clock = fakeClock();
  const drive = fakeDrive();
  const accounts = fakeAccounts();
  accounts.add({ id: 'grace', first_name: 'Grace', last_name: 'Hopper' });
  accounts.add({ id: 'stranger' });
  drive.folder('grace', 'Shared');
  drive.folder('grace', 'Inner', 'Shared');
  drive.folder('grace', 'Empty', 'Inner');
  drive.folder('grace', 'Private');
  drive.file('grace', 'top', 'Shared');
  drive.file('grace', 'deep', 'Inner');
  drive.file('grace', 'secret', 'Private');
  drive.file('grace', 'root', null, { name: 'report.pdf', mimetype: 'application/pdf', size: 2048 });
  drive.file('stranger', 'theirs', null);
  const { rows, repository } = fakeSharesRepository(drive, accounts);
  const tokens = createShareTokens('a-test-secret-of-at-least-32-characters', clock);
  const perAddress = fakeLimiter(10);
  const perLink = fakeLimiter(100);
  const daily: string[] = [];
  const service = createPublicLinksService({
    shares: repository,
    files: drive.files,
    folders: drive.folders,
    users: accounts.users,
    ownerActive: accounts.ownerActive,
    settingsOf: accounts.settingsOf,
    planOf: async () => ({ maxFileSize: 1024 }),
    passwords: fakePasswords,
    tokens,
    passwordFailures: perAddress.limiter,
    passwordFailuresPerLink: perLink.limiter,
    countDailyDownload: async (shareId) => void daily.push(shareId),
    clock,
  });
  /** A link to a file or folder of Grace's, as stored; answers its token. */
  const link = (item: { file?: string; folder?: string }, extra: Partial<ShareRow> = {}) => {
    const id = `share-${rows.length + 1}`;
    rows.push({
      id,
      user_id: 'grace',
      kind: 'link',
      file_id: item.file ?? null,
      folder_id: item.folder ?? null,
      token_hash: tokens.hash(tokens.tokenFor(id)),
      email: null,
      password_hash: null,
      expires_at: new Date(clock.now().getTime() + 24 * HOUR).toISOString(),
      revoked_at: null,
      download_count: 0,
      created_at: clock.now().toISOString(),
      ...extra,
    });
    return { id, token: tokens.tokenFor(id) };
  };
  return { service, rows, drive, accounts, clock, tokens, perAddress, perLink, daily, link };
}

const NOT_FOUND = { status: 404, code: 'SHARE_NOT_FOUND', message: 'This link does not exist or was revoked.' };

describe('resolving a link', () => {
  it('opens the live item of a link until the moment it expires, then answers 410', async () => {
    const { service, clock, link } = setUp();
    const { token } = link({ file: 'root' });
    expect(await service.resolve(token, undefined)).toMatchObject({ type: 'file', ownerId: 'grace', file: { id: 'root' } });
    clock.advance(24 * HOUR - 1);
    expect((await service.resolve(token, undefined)).type).toBe('file');
    clock.advance(1);
    expect(await refusal(service.resolve(token, undefined))).toMatchObject({
      status: 410,
      code: 'SHARE_EXPIRED',
      message: 'This link has expired. Ask the owner for a new one.',
    });
  });

  it('keeps a link made without an expiry (before every link had one) open', async () => {
    const { service, clock, link } = setUp();
    const { token } = link({ folder: 'Shared' }, { expires_at: null });
    clock.advance(10_000 * HOUR);
    expect((await service.resolve(token, undefined)).type).toBe('folder');
  });

  it('answers 404 for an unknown token, a revoked link, an item in Trash, a suspended owner and a private share', async () => {
    const { service, rows, drive, accounts, tokens, link } = setUp();
    expect(await refusal(service.resolve('A'.repeat(43), undefined))).toMatchObject(NOT_FOUND);

    const revoked = link({ file: 'root' }, { revoked_at: '2026-12-01T09:00:00.000Z' });
    expect(await refusal(service.resolve(revoked.token, undefined))).toMatchObject(NOT_FOUND);

    const trashed = link({ file: 'top' });
    drive.trash('top');
    expect(await refusal(service.resolve(trashed.token, undefined))).toMatchObject(NOT_FOUND);

    // A private share has no token of its own; one whose hash someone stored still opens nothing.
    rows.push({ ...(rows[0] as ShareRow), id: 'private', kind: 'private', revoked_at: null, token_hash: tokens.hash('private-token') });
    expect(await refusal(service.resolve('private-token', undefined))).toMatchObject(NOT_FOUND);

    const live = link({ folder: 'Shared' });
    accounts.suspend('grace');
    expect(await refusal(service.resolve(live.token, undefined))).toMatchObject(NOT_FOUND);
  });

  it('checks expiry before the item: an expired link to a deleted file says expired', async () => {
    const { service, drive, clock, link } = setUp();
    const { token } = link({ file: 'root' });
    drive.trash('root');
    clock.advance(24 * HOUR);
    expect((await refusal(service.resolve(token, undefined))).status).toBe(410);
  });
});

describe('a password-protected link', () => {
  const protectedLink = (context: ReturnType<typeof setUp>) => context.link({ folder: 'Shared' }, { password_hash: 'hashed:open sesame' });

  it('answers 401 with passwordRequired until the visitor shows the pass the right password bought, for an hour', async () => {
    const context = setUp();
    const { service, clock } = context;
    const { token } = protectedLink(context);
    const locked = await refusal(service.resolve(token, undefined));
    expect(locked).toMatchObject({ status: 401, code: 'SHARE_PASSWORD_REQUIRED', details: { passwordRequired: true } });
    expect((await refusal(service.describe(token, undefined))).status).toBe(401);

    const { accessToken, expiresAt } = await service.unlock(token, 'open sesame', '192.0.2.1');
    expect(expiresAt).toBe(new Date(clock.now().getTime() + SHARE_ACCESS_LIFETIME_MS).toISOString());
    expect((await service.resolve(token, accessToken)).type).toBe('folder');
    expect((await refusal(service.resolve(token, 'not-a-pass'))).status).toBe(401);
    clock.advance(SHARE_ACCESS_LIFETIME_MS);
    expect((await refusal(service.resolve(token, accessToken))).code).toBe('SHARE_PASSWORD_REQUIRED');
  });

  it("opens with no other link's pass", async () => {
    const context = setUp();
    const first = protectedLink(context);
    const second = protectedLink(context);
    const { accessToken } = await context.service.unlock(first.token, 'open sesame', '192.0.2.1');
    expect((await refusal(context.service.resolve(second.token, accessToken))).code).toBe('SHARE_PASSWORD_REQUIRED');
  });

  it('counts a wrong password per link and per address, and takes back both counts when the password is right', async () => {
    const context = setUp();
    const { service, perAddress, perLink } = context;
    const { id, token } = protectedLink(context);
    expect(await refusal(service.unlock(token, 'nope', '192.0.2.1'))).toMatchObject({
      status: 401,
      code: 'WRONG_SHARE_PASSWORD',
      details: { passwordRequired: true },
    });
    expect([perLink.counted.get(id), perAddress.counted.get(`${id}:192.0.2.1`)]).toEqual([1, 1]);
    await service.unlock(token, 'open sesame', '192.0.2.1');
    expect([perLink.counted.get(id), perAddress.counted.get(`${id}:192.0.2.1`)]).toEqual([1, 1]);
  });

  it('answers 429 to the 11th guess from one address, even with the right password, while another address may still try', async () => {
    const context = setUp();
    const { service } = context;
    const { token } = protectedLink(context);
    for (let guess = 0; guess < 10; guess += 1) expect((await refusal(service.unlock(token, 'nope', '192.0.2.1'))).status).toBe(401);
    expect((await refusal(service.unlock(token, 'open sesame', '192.0.2.1'))).status).toBe(429);
    expect((await service.unlock(token, 'open sesame', '192.0.2.2')).accessToken).toBeTruthy();
  });

  it("asks the link's own limit first: a link under attack counts no window per address that tries it", async () => {
    const context = setUp();
    const { service, perAddress, perLink } = context;
    const { id, token } = protectedLink(context);
    perLink.counted.set(id, 100);
    expect((await refusal(service.unlock(token, 'open sesame', '192.0.2.9'))).status).toBe(429);
    expect(perAddress.counted.size).toBe(0);
  });

  it('is not found when unlocking a link with no password, a revoked link or an unknown token', async () => {
    const { service, link } = setUp();
    expect(await refusal(service.unlock(link({ file: 'root' }).token, 'x', '192.0.2.1'))).toMatchObject(NOT_FOUND);
    const revoked = link({ file: 'root' }, { password_hash: 'hashed:x', revoked_at: '2026-12-01T09:00:00.000Z' });
    expect(await refusal(service.unlock(revoked.token, 'x', '192.0.2.1'))).toMatchObject(NOT_FOUND);
    expect(await refusal(service.unlock('B'.repeat(43), 'x', '192.0.2.1'))).toMatchObject(NOT_FOUND);
  });
});

describe('what a visitor is shown', () => {
  it("describes a file with its size and preview, and the owner's first name unless the profile is public", async () => {
    const { service, accounts, link, rows } = setUp();
    const { token } = link({ file: 'root' });
    expect(await service.describe(token, undefined)).toEqual({
      type: 'file',
      name: 'report.pdf',
      size: 2048,
      sizeFormatted: '2 KB',
      mimetype: 'application/pdf',
      preview: 'pdf',
      contentTag: expect.any(String),
      expiresAt: rows[0]?.expires_at,
      owner: { firstName: 'Grace' },
      role: 'view',
    });
    // Friends-only is for the people a folder is shared with, not for visitors of a link.
    accounts.setSettings('grace', settingsWith({ privacy: { profileVisibility: 'friends' } }));
    expect((await service.describe(token, undefined)).owner).toEqual({ firstName: 'Grace' });
    accounts.setSettings('grace', settingsWith({ privacy: { profileVisibility: 'public' } }));
    expect((await service.describe(token, undefined)).owner).toEqual({ firstName: 'Grace', lastName: 'Hopper' });
  });

  it('describes a folder with its id, the root of its items', async () => {
    const { service, link, rows } = setUp();
    const { token } = link({ folder: 'Shared' });
    expect(await service.describe(token, undefined)).toEqual({
      type: 'folder',
      name: 'Shared',
      folderId: 'Shared',
      expiresAt: rows[0]?.expires_at,
      owner: { firstName: 'Grace' },
      role: 'view',
    });
  });

  it('lists the shared folder and any folder inside it, with a path that starts at the shared folder', async () => {
    const { service, link } = setUp();
    const { token } = link({ folder: 'Shared' });
    const top = await service.items(token, undefined, undefined);
    expect(top.folders.map((folder) => folder.id)).toEqual(['Inner']);
    expect(top.files.map((file) => file.id)).toEqual(['top']);
    expect(top.path).toEqual([{ id: 'Shared', name: 'Shared', parentId: null }]);
    const empty = await service.items(token, undefined, 'Empty');
    expect(empty).toEqual({
      folders: [],
      files: [],
      path: [
        { id: 'Shared', name: 'Shared', parentId: null },
        { id: 'Inner', name: 'Inner', parentId: 'Shared' },
        { id: 'Empty', name: 'Empty', parentId: 'Inner' },
      ],
    });
  });

  it('lists nothing outside the shared folder, and nothing through a file link', async () => {
    const { service, link } = setUp();
    const inner = link({ folder: 'Inner' });
    for (const outside of ['Shared', 'Private', 'no-such-folder'])
      expect(await refusal(service.items(inner.token, undefined, outside))).toMatchObject({ status: 404, code: 'FOLDER_NOT_FOUND' });
    const file = link({ file: 'root' });
    expect(await refusal(service.items(file.token, undefined, undefined))).toMatchObject({ status: 404, code: 'NOT_A_FOLDER' });
  });
});

describe('a file through a folder link', () => {
  it('is any live file at any depth inside the shared folder, and nothing else', async () => {
    const { service, drive, link } = setUp();
    const resolved = await service.resolve(link({ folder: 'Shared' }).token, undefined);
    expect((await service.fileInFolderShare(resolved, 'top')).id).toBe('top');
    expect((await service.fileInFolderShare(resolved, 'deep')).id).toBe('deep');
    drive.trash('deep');
    for (const fileId of ['deep', 'secret', 'root', 'theirs', 'no-such-file'])
      expect((await refusal(service.fileInFolderShare(resolved, fileId))).status).toBe(404);
  });

  it('is never reached through a file link', async () => {
    const { service, link } = setUp();
    const resolved = await service.resolve(link({ file: 'root' }).token, undefined);
    expect((await refusal(service.fileInFolderShare(resolved, 'root'))).code).toBe('FILE_NOT_FOUND');
  });
});

describe('counting a download', () => {
  it("adds one to the link's count and to the day's analytics", async () => {
    const { service, rows, daily, link } = setUp();
    const resolved = await service.resolve(link({ file: 'root' }).token, undefined);
    await service.countDownload(resolved.share);
    await service.countDownload(resolved.share);
    expect(rows[0]?.download_count).toBe(2);
    expect(daily).toEqual([resolved.share.id, resolved.share.id]);
  });
});

describe('a download limit', () => {
  it('counts downloads up to the limit, refuses the next with 410, and then closes every use of the link', async () => {
    const { service, rows, daily, link } = setUp();
    const { token } = link({ folder: 'Shared' }, { download_limit: 2 });
    const resolved = await service.resolve(token, undefined, 'download');
    await service.countDownload(resolved.share);
    await service.countDownload(resolved.share);
    const limit = { status: 410, code: 'DOWNLOAD_LIMIT_REACHED', message: 'This link has reached its download limit' };
    expect(await refusal(service.countDownload(resolved.share))).toMatchObject(limit);
    expect(rows[0]?.download_count).toBe(2);
    // A refused download is not in the day's analytics.
    expect(daily).toHaveLength(2);
    expect(await refusal(service.resolve(token, undefined))).toMatchObject(limit);
    expect(await refusal(service.describe(token, undefined))).toMatchObject(limit);
    expect(await refusal(service.items(token, undefined, undefined))).toMatchObject(limit);
  });
});

describe('what each role shows a visitor', () => {
  it('an upload link: its message and largest file, no folder to list, and no file inside', async () => {
    const { service, link } = setUp();
    const { token } = link({ folder: 'Shared' }, { role: 'upload', message: 'Scans, please' });
    const described = await service.describe(token, undefined);
    expect(described).toMatchObject({ type: 'folder', role: 'upload', message: 'Scans, please', maxFileSize: 1024 });
    expect(described.folderId).toBeUndefined();
    expect(await refusal(service.items(token, undefined, undefined))).toMatchObject({ status: 403, code: 'UPLOAD_ONLY_LINK' });
    const resolved = await service.resolve(token, undefined);
    expect(await refusal(service.fileInFolderShare(resolved, 'top'))).toMatchObject({ status: 403, code: 'UPLOAD_ONLY_LINK' });
  });

  it('a view-only link: described and listed, its files reached for display, never for download', async () => {
    const { service, link } = setUp();
    const { token } = link({ folder: 'Shared' }, { role: 'view-only' });
    const described = await service.describe(token, undefined);
    expect(described).toMatchObject({ role: 'view-only', folderId: 'Shared' });
    expect(described.maxFileSize).toBeUndefined();
    expect((await service.items(token, undefined, undefined)).files).toHaveLength(1);
    expect((await service.resolve(token, undefined, 'view')).type).toBe('folder');
    expect(await refusal(service.resolve(token, undefined, 'download'))).toMatchObject({ status: 403, code: 'DOWNLOAD_NOT_ALLOWED' });
  });
});
