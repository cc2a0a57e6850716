import { describe, expect, it } from 'vitest';
import type { Share } from '@cloudvault/contract/shares';
import type { PlanEntry } from '../plans/plans.catalogue.ts';
import { createOwnerSharesService } from './owner-shares.service.ts';
import { createShareTokens } from './share-tokens.ts';
import { fakeAccounts, fakeClock, fakeDrive, fakePasswords, fakeSharesRepository, FREE, PRO, settingsWith } from './shares.fakes.ts';
import { refusal } from '../../lib/refusal.testing.ts';

const HOUR = 60 * 60 * 1000;
const PUBLIC_URL = 'https://vault.example';

/** Alice owns a file and a folder; Bob owns a file of his own. */
function setUp(plan: PlanEntry = FREE) {
  const clock = fakeClock();
  const drive = fakeDrive();
  const accounts = fakeAccounts();
  accounts.add({ id: 'alice' });
  accounts.add({ id: 'bob' });
  drive.file('alice', 'report');
  drive.folder('alice', 'photos');
  drive.file('bob', 'bobs');
  const { rows, repository } = fakeSharesRepository(drive, accounts);
  const activity: Array<[string, Record<string, string>]> = [];
  const tokens = createShareTokens('a-test-secret-of-at-least-32-characters', clock);
  const service = createOwnerSharesService({
    shares: repository,
    files: drive.files,
    folders: drive.folders,
    planOf: async () => plan,
    passwords: fakePasswords,
    tokens,
    settingsOf: accounts.settingsOf,
    activity: { record: async (userId, _type, details) => void activity.push([userId, details ?? {}]) },
    clock,
    publicUrl: PUBLIC_URL,
  });
  return { service, rows, drive, accounts, clock, tokens, activity };
}

const at = (start: Date, hours: number) => new Date(start.getTime() + hours * HOUR).toISOString();

async function all(shares: AsyncIterable<Share>): Promise<Share[]> {
  const listed: Share[] = [];
  for await (const share of shares) listed.push(share);
  return listed;
}

describe('a file link', () => {
  it('lasts 24 hours unless asked otherwise, and its address is the token the stored hash is of', async () => {
    const { service, rows, clock, tokens, activity } = setUp();
    const link = await service.shareFile('alice', 'report', {});
    expect(link.expiresAt).toBe(at(clock.now(), 24));
    const token = tokens.tokenFor(link.shareId);
    expect(link.shareUrl).toBe(`${PUBLIC_URL}/s/${token}`);
    expect(rows).toEqual([
      expect.objectContaining({
        id: link.shareId,
        user_id: 'alice',
        kind: 'link',
        file_id: 'report',
        folder_id: null,
        password_hash: null,
      }),
    ]);
    // Only the token's hash is stored: a copy of the database opens no links.
    expect(rows[0]?.token_hash).toBe(tokens.hash(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(activity).toEqual([['alice', { kind: 'link', item: 'file', name: 'report.txt' }]]);
    expect((await service.shareFile('alice', 'report', { expiresIn: 2 })).expiresAt).toBe(at(clock.now(), 2));
  });

  it("lasts at most the plan's longest lifetime: Free's 24 hours, not 25", async () => {
    const { service, rows } = setUp(FREE);
    expect((await service.shareFile('alice', 'report', { expiresIn: 24 })).shareId).toBeTruthy();
    const tooLong = await refusal(service.shareFile('alice', 'report', { expiresIn: 25 }));
    expect(tooLong).toMatchObject({ status: 400, code: 'EXPIRY_TOO_LONG', message: 'Links on the Free plan last at most 24 hours.' });
    expect(rows).toHaveLength(1);
  });

  it("lasts up to Pro's 720 hours, still 24 by default", async () => {
    const { service, clock } = setUp(PRO);
    expect((await service.shareFile('alice', 'report', { expiresIn: 720 })).expiresAt).toBe(at(clock.now(), 720));
    expect((await service.shareFile('alice', 'report', {})).expiresAt).toBe(at(clock.now(), 24));
    expect((await refusal(service.shareFile('alice', 'report', { expiresIn: 721 }))).code).toBe('EXPIRY_TOO_LONG');
  });

  it('has a password only on plans with protected links, stored as its hash', async () => {
    const free = setUp(FREE);
    const refused = await refusal(free.service.shareFile('alice', 'report', { password: 'open sesame' }));
    expect(refused).toMatchObject({ status: 400, code: 'PASSWORD_LINKS_NOT_IN_PLAN' });
    expect(free.rows).toEqual([]);

    const pro = setUp(PRO);
    await pro.service.shareFile('alice', 'report', { password: 'open sesame' });
    expect(pro.rows[0]?.password_hash).toBe('hashed:open sesame');
  });

  it("is refused as not found for another user's file or one in Trash, leaving nothing", async () => {
    const { service, rows, drive } = setUp(PRO);
    expect(await refusal(service.shareFile('alice', 'bobs', {}))).toMatchObject({ status: 404, code: 'FILE_NOT_FOUND' });
    drive.trash('report');
    expect((await refusal(service.shareFile('alice', 'report', {}))).code).toBe('FILE_NOT_FOUND');
    // Not found comes before the plan's rules: nothing about someone else's file is told.
    expect((await refusal(service.shareFile('alice', 'bobs', { expiresIn: 10_000 }))).code).toBe('FILE_NOT_FOUND');
    expect(rows).toEqual([]);
  });
});

describe('a folder link', () => {
  it("lasts the plan's longest lifetime when none is asked for, and follows the same rules as a file link", async () => {
    const free = setUp(FREE);
    const link = await free.service.shareFolderLink('alice', 'photos', {});
    expect(link.expiresAt).toBe(at(free.clock.now(), 24));
    expect(free.rows[0]).toMatchObject({ kind: 'link', file_id: null, folder_id: 'photos' });
    expect(free.activity).toEqual([['alice', { kind: 'link', item: 'folder', name: 'photos' }]]);
    expect((await free.service.shareFolderLink('alice', 'photos', { expiresIn: 2 })).expiresAt).toBe(at(free.clock.now(), 2));
    expect((await refusal(free.service.shareFolderLink('alice', 'photos', { expiresIn: 25 }))).code).toBe('EXPIRY_TOO_LONG');
    expect((await refusal(free.service.shareFolderLink('alice', 'photos', { password: 'open sesame' }))).code).toBe(
      'PASSWORD_LINKS_NOT_IN_PLAN',
    );

    const pro = setUp(PRO);
    expect((await pro.service.shareFolderLink('alice', 'photos', {})).expiresAt).toBe(at(pro.clock.now(), 720));
  });

  it("is refused as not found for another user's folder", async () => {
    const { service, rows } = setUp();
    expect(await refusal(service.shareFolderLink('bob', 'photos', {}))).toMatchObject({ status: 404, code: 'FOLDER_NOT_FOUND' });
    expect(rows).toEqual([]);
  });
});

describe("the owner's listing", () => {
  it('shows each link with its address and each private share with its recipient, newest first, download counts only with analytics on', async () => {
    const { service, rows, accounts, clock } = setUp(PRO);
    const link = await service.shareFile('alice', 'report', { password: 'open sesame' });
    rows.push({
      id: 'private-1',
      user_id: 'alice',
      kind: 'private',
      file_id: null,
      folder_id: 'photos',
      token_hash: null,
      email: 'friend@example.com',
      password_hash: null,
      expires_at: null,
      revoked_at: null,
      download_count: 0,
      created_at: new Date(clock.now().getTime() + 1000).toISOString(),
    });
    (rows[0] as { download_count: number }).download_count = 3;

    expect(await all(await service.list('alice'))).toEqual([
      {
        id: 'private-1',
        kind: 'private',
        itemType: 'folder',
        itemId: 'photos',
        name: 'photos',
        email: 'friend@example.com',
        expiresAt: null,
        createdAt: rows[1]?.created_at,
        passwordProtected: false,
        role: 'viewer',
        mayReshare: false,
        downloadLimit: null,
        uploadCount: 0,
      },
      {
        id: link.shareId,
        kind: 'link',
        itemType: 'file',
        itemId: 'report',
        name: 'report.txt',
        shareUrl: link.shareUrl,
        expiresAt: link.expiresAt,
        createdAt: clock.now().toISOString(),
        passwordProtected: true,
        role: 'view',
        downloadLimit: null,
        uploadCount: 0,
      },
    ]);

    accounts.setSettings('alice', settingsWith({ privacy: { shareAnalytics: true } }));
    const withCounts = await all(await service.list('alice'));
    expect(withCounts.map((share) => share.downloadCount)).toEqual([0, 3]);
    expect(await all(await service.list('bob'))).toEqual([]);
  });

  it('leaves out revoked shares and shares of items in Trash', async () => {
    const { service, drive } = setUp();
    const kept = await service.shareFolderLink('alice', 'photos', {});
    const revoked = await service.shareFolderLink('alice', 'photos', {});
    await service.shareFile('alice', 'report', {});
    await service.revoke('alice', revoked.shareId);
    drive.trash('report');
    expect((await all(await service.list('alice'))).map((share) => share.id)).toEqual([kept.shareId]);
  });
});

describe('revoking', () => {
  it("revokes the owner's own share once; another user's, an unknown one or one revoked already is not found", async () => {
    const { service, rows, clock } = setUp();
    const link = await service.shareFile('alice', 'report', {});
    expect(await refusal(service.revoke('bob', link.shareId))).toMatchObject({ status: 404, code: 'SHARE_NOT_FOUND' });
    expect(rows[0]?.revoked_at).toBeNull();
    clock.advance(HOUR);
    await service.revoke('alice', link.shareId);
    expect(rows[0]?.revoked_at).toBe(clock.now().toISOString());
    expect((await refusal(service.revoke('alice', link.shareId))).code).toBe('SHARE_NOT_FOUND');
    expect((await refusal(service.revoke('alice', 'no-such-share'))).code).toBe('SHARE_NOT_FOUND');
  });
});

describe('the counts on the subscription page', () => {
  it('count the shares still active now and every download through the owner’s links', async () => {
    const { service, rows, clock } = setUp();
    await service.shareFile('alice', 'report', { expiresIn: 1 });
    const revoked = await service.shareFile('alice', 'report', {});
    await service.shareFile('alice', 'report', {});
    await service.revoke('alice', revoked.shareId);
    (rows[1] as { download_count: number }).download_count = 2;
    expect(await service.counts('alice')).toEqual({ shared: 2, downloads: 2 });
    clock.advance(HOUR);
    expect(await service.counts('alice')).toEqual({ shared: 1, downloads: 2 });
  });
});

describe('changing a link in place', () => {
  it('keeps its address and item, and stores only the settings asked for', async () => {
    const { service, rows, clock } = setUp(PRO);
    const link = await service.shareFolderLink('alice', 'photos', { role: 'upload', message: 'Scans, please', downloadLimit: 3 });
    const before = { ...rows[0] };
    const { share } = await service.update('alice', link.shareId, { role: 'edit', expiresAt: at(clock.now(), 48) });
    expect(share).toMatchObject({ id: link.shareId, shareUrl: link.shareUrl, role: 'edit', message: 'Scans, please', downloadLimit: 3 });
    expect(rows[0]).toEqual({ ...before, role: 'edit', expires_at: at(clock.now(), 48), message: 'Scans, please' });
    await service.update('alice', link.shareId, { password: 'open sesame', downloadLimit: null });
    expect(rows[0]).toMatchObject({ password_hash: 'hashed:open sesame', download_limit: null, token_hash: before.token_hash });
  });

  it('refuses an expiry in the past or beyond the plan, a role or setting of the other kind, and shares not the caller’s', async () => {
    const { service, rows, clock } = setUp();
    const link = await service.shareFile('alice', 'report', {});
    const before = { ...rows[0] };
    const refused = (body: Parameters<typeof service.update>[2], userId = 'alice') => refusal(service.update(userId, link.shareId, body));
    expect(await refused({ expiresAt: at(clock.now(), 0) })).toMatchObject({ status: 400, code: 'EXPIRY_IN_PAST' });
    expect(await refused({ expiresAt: at(clock.now(), 25) })).toMatchObject({ status: 400, code: 'EXPIRY_TOO_LONG' });
    expect(await refused({ password: 'open sesame' })).toMatchObject({ status: 400, code: 'PASSWORD_LINKS_NOT_IN_PLAN' });
    expect(await refused({ role: 'upload' })).toMatchObject({ status: 400, code: 'ROLE_NOT_FOR_FILES' });
    expect(await refused({ role: 'editor' })).toMatchObject({ status: 400, code: 'ROLE_NOT_FOR_SHARE' });
    expect(await refused({ mayReshare: true })).toMatchObject({ status: 400, code: 'SETTING_NOT_FOR_SHARE' });
    expect(await refused({ role: 'view-only' }, 'bob')).toMatchObject({ status: 404, code: 'SHARE_NOT_FOUND' });
    expect(rows[0]).toEqual(before);
    await service.revoke('alice', link.shareId);
    expect(await refused({ role: 'view-only' })).toMatchObject({ status: 404, code: 'SHARE_NOT_FOUND' });
  });
});
