import { describe, expect, it } from 'vitest';
import type { Language } from '@cloudvault/contract/settings';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import { createPrivateSharesService } from './private-shares.service.ts';
import { fakeAccounts, fakeClock, fakeDrive, fakeLimiter, fakeSharesRepository, settingsWith } from './shares.fakes.ts';
import { refusal } from '../../lib/refusal.testing.ts';
import { notFound } from '../../lib/errors.ts';

const PUBLIC_URL = 'https://vault.example';

interface Notice {
  userId: string;
  type: string;
  details: Record<string, string>;
  mail: (language: Language) => MailMessage;
}

/**
 * Ada Lovelace owns Work/{Reports/{2026/}} and Holidays; Bob has a verified account,
 * Carol one whose address is unproven and who reads German.
 */
function setUp(invitationsPerHour = 20) {
  const clock = fakeClock();
  const drive = fakeDrive();
  const accounts = fakeAccounts();
  accounts.add({ id: 'ada', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' });
  accounts.add({ id: 'bob', email: 'bob@example.com' });
  accounts.add({ id: 'carol', email: 'carol@example.com', email_verified_at: null }, settingsWith({ language: 'de' }));
  drive.folder('ada', 'Work');
  drive.folder('ada', 'Reports', 'Work');
  drive.folder('ada', '2026', 'Reports');
  drive.folder('ada', 'Holidays');
  drive.folder('bob', 'Bobs');
  drive.file('ada', 'budget', 'Reports');
  drive.file('bob', 'bobs-file');
  const { rows, repository } = fakeSharesRepository(drive, accounts);
  const invitations = fakeLimiter(invitationsPerHour);
  const mails: MailMessage[] = [];
  const notices: Notice[] = [];
  const activity: Array<Record<string, string>> = [];
  const service = createPrivateSharesService({
    shares: repository,
    members: {
      setGrant: async (ownerId, id, grant) => {
        const row = rows.find((share) => share.id === id && share.user_id === ownerId && share.revoked_at === null);
        if (row) Object.assign(row, grant);
        return row !== undefined;
      },
    },
    // Sharing further is proven over HTTP (share-roles.test.ts): no one here is a member.
    folders: { ...drive.folders, readableFolder: async () => Promise.reject(notFound('Folder not found', 'FOLDER_NOT_FOUND')) },
    files: drive.files,
    users: accounts.users,
    settingsOf: accounts.settingsOf,
    invitationsPerOwner: invitations.limiter,
    sendMail: async (message) => void mails.push(message),
    notifyUser: async (userId, event) => void notices.push({ userId, type: event.type, details: event.details, mail: event.mail }),
    activity: { record: async (_userId, _type, details) => void activity.push(details ?? {}) },
    clock,
    publicUrl: PUBLIC_URL,
  });
  return { service, rows, drive, accounts, invitations, mails, notices, activity };
}

describe('sharing a folder with an e-mail', () => {
  it('stores the normalised address, records it and answers the share as the owner lists it', async () => {
    const { service, rows, activity } = setUp();
    const answer = await service.shareFolderWith('ada', 'Reports', '  BOB@Example.com ');
    expect(answer).toEqual({
      message: 'Folder shared with bob@example.com',
      share: {
        id: rows[0]?.id,
        kind: 'private',
        itemType: 'folder',
        itemId: 'Reports',
        name: 'Reports',
        email: 'bob@example.com',
        expiresAt: null,
        createdAt: '2026-12-01T10:00:00.000Z',
        passwordProtected: false,
        role: 'viewer',
        mayReshare: false,
        downloadLimit: null,
        uploadCount: 0,
      },
    });
    expect(rows).toEqual([
      expect.objectContaining({ user_id: 'ada', kind: 'private', folder_id: 'Reports', email: 'bob@example.com', token_hash: null }),
    ]);
    expect(activity).toEqual([{ kind: 'private', item: 'folder', name: 'Reports', email: 'bob@example.com' }]);
  });

  it('refuses an invalid address, your own in any case, and a folder not yours, storing and sending nothing', async () => {
    const { service, rows, mails, notices, invitations } = setUp();
    expect(await refusal(service.shareFolderWith('ada', 'Reports', 'not-an-email'))).toMatchObject({
      status: 400,
      code: 'INVALID_EMAIL',
    });
    expect(await refusal(service.shareFolderWith('ada', 'Reports', ' ADA@example.com'))).toMatchObject({
      status: 400,
      code: 'SHARE_WITH_SELF',
      message: 'You cannot share a folder with yourself.',
    });
    expect(await refusal(service.shareFolderWith('ada', 'Bobs', 'carol@example.com'))).toMatchObject({
      status: 404,
      code: 'FOLDER_NOT_FOUND',
    });
    expect([rows, mails, notices, [...invitations.counted.values()]]).toEqual([[], [], [], []]);
  });

  it('tells a verified recipient as their notification settings say, naming the owner as a recipient may see them', async () => {
    const { service, mails, notices } = setUp();
    await service.shareFolderWith('ada', 'Reports', 'bob@example.com');
    expect(mails).toEqual([]);
    // A private profile (the default) shows the first name only.
    expect(notices.map(({ userId, details }) => ({ userId, details }))).toEqual([
      { userId: 'bob', details: { folder: 'Reports', owner: 'Ada' } },
    ]);
    const mail = notices[0]?.mail('en');
    expect(mail).toMatchObject({ to: 'bob@example.com', subject: 'Ada shared the folder “Reports” with you' });
    expect(mail?.text).toContain(`${PUBLIC_URL}/shared`);
    expect(notices[0]?.mail('fr').subject).toBe('Ada a partagé le dossier « Reports » avec vous');
  });

  it('shows a friends-only owner by full name to recipients', async () => {
    const { service, accounts, notices } = setUp();
    accounts.setSettings('ada', settingsWith({ privacy: { profileVisibility: 'friends' } }));
    await service.shareFolderWith('ada', 'Reports', 'bob@example.com');
    expect(notices[0]?.details.owner).toBe('Ada Lovelace');
    expect(notices[0]?.mail('en').subject).toBe('Ada Lovelace shared the folder “Reports” with you');
  });

  it('invites an address with no account, in the sharer’s language, to register with it', async () => {
    const { service, accounts, mails, notices } = setUp();
    accounts.setSettings('ada', settingsWith({ language: 'es' }));
    await service.shareFolderWith('ada', 'Reports', 'New.Person@example.com');
    expect(notices).toEqual([]);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'new.person@example.com', subject: 'Ada compartió contigo la carpeta «Reports»' });
    expect(mails[0]?.text).toContain(`${PUBLIC_URL}/register?email=new.person%40example.com`);
  });

  it('mails an account whose address is unproven at the address, in its language, and puts nothing on its bell', async () => {
    const { service, mails, notices } = setUp();
    await service.shareFolderWith('ada', 'Reports', 'carol@example.com');
    expect(notices).toEqual([]);
    expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([['carol@example.com', 'Ada hat den Ordner „Reports“ mit Ihnen geteilt']]);
    expect(mails[0]?.text).toContain(`${PUBLIC_URL}/shared`);
  });

  it('shares again with the same address without a new row, a new mail or a counted invitation', async () => {
    const { service, rows, notices, invitations } = setUp();
    const first = await service.shareFolderWith('ada', 'Reports', 'bob@example.com');
    const again = await service.shareFolderWith('ada', 'Reports', 'Bob@example.com');
    expect(again.share.id).toBe(first.share.id);
    expect(rows).toHaveLength(1);
    expect(notices).toHaveLength(1);
    expect(invitations.counted.get('ada')).toBe(1);
  });

  it('stores the role and reshare flag asked, a viewer without them; asked again with another role, that role holds', async () => {
    const { service, rows, notices } = setUp();
    const plain = await service.shareFolderWith('ada', 'Work', 'bob@example.com');
    expect(plain.share).toMatchObject({ role: 'viewer', mayReshare: false });
    const editor = await service.shareFolderWith('ada', 'Reports', 'bob@example.com', { role: 'editor', mayReshare: true });
    expect(editor.share).toMatchObject({ role: 'editor', mayReshare: true });
    const demoted = await service.shareFolderWith('ada', 'Reports', 'bob@example.com', { role: 'viewer' });
    expect(demoted.share).toMatchObject({ id: editor.share.id, role: 'viewer', mayReshare: true });
    // Without a role, asking again keeps the stored one.
    expect((await service.shareFolderWith('ada', 'Reports', 'bob@example.com')).share.role).toBe('viewer');
    expect(rows.find((row) => row.id === editor.share.id)).toMatchObject({ role: 'viewer', may_reshare: 1 });
    expect(notices).toHaveLength(2);
  });

  it("counts every new share against the owner's invitations; past the limit 429, nothing stored or sent", async () => {
    const { service, rows, mails, invitations } = setUp(2);
    await service.shareFolderWith('ada', 'Reports', 'one@example.com');
    await service.shareFolderWith('ada', 'Reports', 'two@example.com');
    const limited = await refusal(service.shareFolderWith('ada', 'Reports', 'three@example.com'));
    expect(limited.status).toBe(429);
    expect(rows).toHaveLength(2);
    expect(mails.map((mail) => mail.to)).toEqual(['one@example.com', 'two@example.com']);
    // Another owner has a limit of their own.
    await service.shareFolderWith('bob', 'Bobs', 'three@example.com');
    expect([...invitations.counted]).toEqual([
      ['ada', 2],
      ['bob', 1],
    ]);
  });
});

describe('sharing a file with an e-mail', () => {
  it('stores the share of that file, tells the recipient it is a file, and records its name', async () => {
    const { service, rows, notices, activity } = setUp();
    const answer = await service.shareFileWith('ada', 'budget', 'Bob@example.com');
    expect(answer).toMatchObject({
      message: 'File shared with bob@example.com',
      share: { kind: 'private', itemType: 'file', itemId: 'budget', name: 'budget.txt', email: 'bob@example.com' },
    });
    expect(rows).toEqual([expect.objectContaining({ kind: 'private', file_id: 'budget', folder_id: null, email: 'bob@example.com' })]);
    expect(notices.map(({ userId, type, details }) => ({ userId, type, details }))).toEqual([
      { userId: 'bob', type: 'file_shared', details: { file: 'budget.txt', owner: 'Ada' } },
    ]);
    expect(notices[0]?.mail('en').subject).toBe('Ada shared the file “budget.txt” with you');
    expect(notices[0]?.mail('de').subject).toBe('Ada hat die Datei „budget.txt“ mit Ihnen geteilt');
    expect(activity).toEqual([{ kind: 'private', item: 'file', name: 'budget.txt', email: 'bob@example.com' }]);
    // The same address again: the same share; the folder it lives in is another item.
    expect((await service.shareFileWith('ada', 'budget', 'bob@example.com')).share.id).toBe(answer.share.id);
    expect(rows).toHaveLength(1);
  });

  it("refuses someone else's file or one in Trash as not found, and oneself", async () => {
    const { service, drive, rows } = setUp();
    expect(await refusal(service.shareFileWith('ada', 'bobs-file', 'carol@example.com'))).toMatchObject({
      status: 404,
      code: 'FILE_NOT_FOUND',
    });
    expect(await refusal(service.shareFileWith('ada', 'budget', 'ada@example.com'))).toMatchObject({
      status: 400,
      code: 'SHARE_WITH_SELF',
    });
    drive.trash('budget');
    expect((await refusal(service.shareFileWith('ada', 'budget', 'bob@example.com'))).code).toBe('FILE_NOT_FOUND');
    expect(rows).toEqual([]);
  });
});
