import { describe, expect, it } from 'vitest';
import { createSharedWithMeService } from './shared-with-me.service.ts';
import { fakeAccounts, fakeClock, fakeDrive, fakeSharesRepository, settingsWith } from './shares.fakes.ts';
import { refusal } from '../../lib/refusal.testing.ts';

/**
 * Ada Lovelace owns Work/{Reports/{2026/}} and Holidays; Bob has a verified account, Carol
 * one whose address is unproven.
 */
function setUp() {
  const drive = fakeDrive();
  const accounts = fakeAccounts();
  accounts.add({ id: 'ada', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' });
  accounts.add({ id: 'bob', email: 'bob@example.com' });
  accounts.add({ id: 'carol', email: 'carol@example.com', email_verified_at: null });
  drive.folder('ada', 'Work');
  drive.folder('ada', 'Reports', 'Work');
  drive.folder('ada', '2026', 'Reports');
  drive.folder('ada', 'Holidays');
  const { rows, repository } = fakeSharesRepository(drive, accounts);
  const service = createSharedWithMeService({
    shares: repository,
    users: accounts.users,
    ownerActive: accounts.ownerActive,
    settingsOf: accounts.settingsOf,
    members: {
      leave: async (id, email, now) => {
        const row = rows.find((share) => share.id === id && share.email === email && share.revoked_at === null);
        if (row) row.revoked_at = now;
        return row !== undefined;
      },
    },
    clock: fakeClock(),
  });
  /** A private share of one of Ada's folders (or, with `item`, files), stored as the owner's side stores it (the address normalised). */
  const share = (folderId: string, email: string, item: 'file' | 'folder' = 'folder') => {
    const id = `share-${rows.length + 1}`;
    rows.push({
      id,
      user_id: 'ada',
      kind: 'private',
      file_id: item === 'file' ? folderId : null,
      folder_id: item === 'folder' ? folderId : null,
      token_hash: null,
      email,
      password_hash: null,
      expires_at: null,
      revoked_at: null,
      download_count: 0,
      created_at: '2026-12-01T10:00:00.000Z',
    });
    return id;
  };
  const revoke = (shareId: string) => {
    for (const row of rows) if (row.id === shareId) row.revoked_at = '2026-12-01T11:00:00.000Z';
  };
  return { service, drive, accounts, share, revoke };
}

describe('leaving a share', () => {
  it('ends the share made with my verified address at once; anyone else’s, or one ended, is 404', async () => {
    const { service, share } = setUp();
    const bobs = share('Reports', 'bob@example.com');
    const carols = share('Work', 'carol@example.com');
    expect((await refusal(service.leave('ada', bobs))).status).toBe(404);
    // Carol's address is unproven: the share is not hers to leave.
    expect((await refusal(service.leave('carol', carols))).status).toBe(404);
    await service.leave('bob', bobs);
    expect(await service.sharedWithMe('bob')).toEqual([]);
    expect((await refusal(service.leave('bob', bobs))).status).toBe(404);
  });
});

describe('what was shared with me', () => {
  it('lists live folders shared with a verified address, at the top of the view, owner named as a recipient may see them', async () => {
    const { service, accounts, drive, share } = setUp();
    const reports = share('Reports', 'bob@example.com');
    share('Holidays', 'bob@example.com');
    share('Work', 'carol@example.com');
    expect((await service.sharedWithMe('bob')).map((folder) => folder.owner)).toEqual([{ firstName: 'Ada' }, { firstName: 'Ada' }]);
    accounts.setSettings('ada', settingsWith({ privacy: { profileVisibility: 'friends' } }));
    expect(await service.sharedWithMe('bob')).toEqual([
      expect.objectContaining({ name: 'Holidays', parentId: null }),
      {
        id: 'Reports',
        name: 'Reports',
        parentId: null,
        createdAt: '2026-11-01T00:00:00.000Z',
        updatedAt: '2026-11-01T00:00:00.000Z',
        shareId: reports,
        owner: { firstName: 'Ada', lastName: 'Lovelace' },
        role: 'viewer',
        mayReshare: false,
      },
    ]);
    drive.trash('Holidays');
    expect((await service.sharedWithMe('bob')).map((folder) => folder.name)).toEqual(['Reports']);
  });

  it('is empty for an address not yet verified, and leaves out what a suspended owner shared', async () => {
    const { service, accounts, share } = setUp();
    share('Work', 'carol@example.com');
    share('Reports', 'bob@example.com');
    expect(await service.sharedWithMe('carol')).toEqual([]);
    expect(await service.sharedWithMe('nobody')).toEqual([]);
    accounts.suspend('ada');
    expect(await service.sharedWithMe('bob')).toEqual([]);
  });

  it('finds a share whatever the case of the account’s address', async () => {
    const { service, accounts, share } = setUp();
    accounts.add({ id: 'dora', email: 'Dora@Example.com' });
    share('Work', 'dora@example.com');
    expect((await service.sharedWithMe('dora')).map((folder) => folder.name)).toEqual(['Work']);
  });
});

describe("reading someone else's folder", () => {
  const pathOf2026 = (drive: ReturnType<typeof fakeDrive>) => drive.folders.pathTo('ada', '2026');

  it('opens through the topmost folder of its path shared with the caller', async () => {
    const { service, drive, share } = setUp();
    const path = await pathOf2026(drive);
    expect(path.map((folder) => folder.id)).toEqual(['Work', 'Reports', '2026']);
    expect(await service.privateShareAccess('bob', 'ada', path)).toBeNull();
    share('Reports', 'bob@example.com');
    expect((await service.privateShareAccess('bob', 'ada', path))?.rootId).toBe('Reports');
    share('Work', 'bob@example.com');
    expect((await service.privateShareAccess('bob', 'ada', path))?.rootId).toBe('Work');
    expect(await service.privateShareAccess('bob', 'ada', [])).toBeNull();
  });

  it('stays closed to an unproven address, to another address, after revoking, and while the owner is suspended', async () => {
    const { service, drive, accounts, share, revoke } = setUp();
    const path = await pathOf2026(drive);
    share('Work', 'carol@example.com');
    const reports = share('Reports', 'bob@example.com');
    expect(await service.privateShareAccess('carol', 'ada', path)).toBeNull();
    accounts.add({ id: 'dave' });
    expect(await service.privateShareAccess('dave', 'ada', path)).toBeNull();
    expect((await service.privateShareAccess('bob', 'ada', path))?.rootId).toBe('Reports');
    revoke(reports);
    expect(await service.privateShareAccess('bob', 'ada', path)).toBeNull();
    share('Work', 'bob@example.com');
    expect((await service.privateShareAccess('bob', 'ada', path))?.rootId).toBe('Work');
    accounts.suspend('ada');
    expect(await service.privateShareAccess('bob', 'ada', path)).toBeNull();
  });
});

describe('a file shared with me on its own', () => {
  it('is listed without the folder it lives in, and is readable by that verified address only, until revoked', async () => {
    const { service, drive, accounts, share } = setUp();
    drive.file('ada', 'budget', 'Reports');
    drive.file('ada', 'beside', 'Reports');
    const shared = share('budget', 'bob@example.com', 'file');
    share('budget', 'carol@example.com', 'file');

    expect(await service.filesSharedWithMe('bob')).toEqual([
      expect.objectContaining({ id: 'budget', originalName: 'budget.txt', folderId: null, shareId: shared, owner: { firstName: 'Ada' } }),
    ]);
    // A file share makes no folder readable, nor shows among the folders.
    expect(await service.sharedWithMe('bob')).toEqual([]);
    expect(await service.privateShareAccess('bob', 'ada', await drive.folders.pathTo('ada', 'Reports'))).toBeNull();
    expect(await service.privateFileShare('bob', 'ada', 'budget')).toMatchObject({ role: 'viewer' });
    expect(await service.privateFileShare('bob', 'ada', 'beside')).toBeNull();
    // Carol's address is unproven: nothing.
    expect(await service.filesSharedWithMe('carol')).toEqual([]);
    expect(await service.privateFileShare('carol', 'ada', 'budget')).toBeNull();

    accounts.suspend('ada');
    expect(await service.filesSharedWithMe('bob')).toEqual([]);
    expect(await service.privateFileShare('bob', 'ada', 'budget')).toBeNull();
  });

  it('is gone once revoked or in Trash', async () => {
    const { service, drive, share, revoke } = setUp();
    drive.file('ada', 'budget');
    drive.file('ada', 'notes');
    revoke(share('budget', 'bob@example.com', 'file'));
    share('notes', 'bob@example.com', 'file');
    drive.trash('notes');
    expect(await service.filesSharedWithMe('bob')).toEqual([]);
    expect(await service.privateFileShare('bob', 'ada', 'budget')).toBeNull();
  });
});
