import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { createVerifiedUser } from './helpers/factories.ts';
import { outboxMail } from './helpers/outbox.ts';
import { readZip } from './helpers/read-zip.ts';
import { startServerWithSmtp } from './helpers/server-with-smtp.ts';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink.ts';
import { withTablesRead } from './helpers/tables-read.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const HOUR = 60 * 60 * 1000;
let server: TestServer;
let smtp: SmtpSink;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ server, smtp, close } = await startServerWithSmtp());
});
afterAll(() => close());

/** The token of a share URL; visitors' routes take it. */
const tokenOf = (shareUrl: string) => {
  expect(shareUrl).toMatch(/^http:\/\/localhost:3000\/s\/[A-Za-z0-9_-]{43}$/);
  return shareUrl.split('/s/')[1] as string;
};

async function visit(pathAndQuery: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/public/shares/${pathAndQuery}`, { headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  const json = response.headers.get('content-type')?.includes('json') ? JSON.parse(bytes.toString()) : undefined;
  return { status: response.status, headers: response.headers, bytes, body: json };
}

/** A tree: Shared/{top.txt, Inner/{deep.txt, Empty/}} next to Private/secret.txt and a root file. */
async function createTree(token: string) {
  const shared = (await createFolder(server, token, 'Shared')).id;
  const inner = (await createFolder(server, token, 'Inner', shared)).id;
  await createFolder(server, token, 'Empty', inner);
  const outside = (await createFolder(server, token, 'Private')).id;
  const top = (await uploadFile(server, token, 'top bytes', { name: 'top.txt', folderId: shared })).body.file.id as string;
  const deep = (await uploadFile(server, token, 'deep bytes', { name: 'deep.txt', folderId: inner })).body.file.id as string;
  const secret = (await uploadFile(server, token, 'secret bytes', { name: 'secret.txt', folderId: outside })).body.file.id as string;
  await uploadFile(server, token, 'root bytes', { name: 'root.txt' });
  return { shared, inner, outside, top, deep, secret };
}

describe('file links', () => {
  it('opens a file for a visitor without an account, counts downloads and expires after 24 hours', async () => {
    const owner = await createUser(server, { firstName: 'Grace', lastName: 'Hopper' });
    const file = await uploadFile(server, owner.token, 'hello, visitor', { name: 'report.txt', type: 'text/plain' });
    const shared = await server.request('POST', `/api/files/${file.body.file.id}/share`, { token: owner.token, body: { expiresIn: 24 } });
    expect(shared.status).toBe(200);
    expect(shared.body.expiresAt).toBe(new Date(server.clock.now().getTime() + 24 * HOUR).toISOString());
    const token = tokenOf(shared.body.shareUrl);

    const described = await visit(token);
    expect(described.status).toBe(200);
    // Private profile (the default): the first name only.
    expect(described.body).toMatchObject({
      type: 'file',
      name: 'report.txt',
      size: 14,
      expiresAt: shared.body.expiresAt,
      owner: { firstName: 'Grace' },
    });
    expect(described.body.owner.lastName).toBeUndefined();

    const download = await visit(`${token}/download`);
    expect(download.status).toBe(200);
    expect(download.bytes.toString()).toBe('hello, visitor');
    expect(download.headers.get('content-disposition')).toContain('attachment');
    expect((await visit(`${token}/download`, { range: 'bytes=7-' })).bytes.toString()).toBe('visitor');

    await server.request('PUT', '/api/user/settings', {
      token: owner.token,
      body: {
        ...(await server.request('GET', '/api/user/settings', { token: owner.token })).body.settings,
        privacy: { profileVisibility: 'public', shareAnalytics: true, twoFactorAuth: false },
      },
    });
    const listed = await server.request('GET', '/api/shares', { token: owner.token });
    expect(listed.body.shares).toEqual([
      expect.objectContaining({
        kind: 'link',
        itemType: 'file',
        name: 'report.txt',
        shareUrl: shared.body.shareUrl,
        downloadCount: 1,
        passwordProtected: false,
      }),
    ]);
    expect((await visit(token)).body.owner).toEqual({ firstName: 'Grace', lastName: 'Hopper' });
    expect((await server.request('GET', '/api/subscriptions/current', { token: owner.token })).body).toMatchObject({
      sharedCount: 1,
      downloadsCount: 1,
    });

    server.clock.advance(24 * HOUR);
    expect((await visit(token)).status).toBe(410);
    expect((await visit(`${token}/download`)).status).toBe(410);
  });

  it('takes no body as the defaults, and refuses lifetimes under an hour or not in whole hours', async () => {
    const { token } = await createUser(server);
    const file = (await uploadFile(server, token, 'x', { name: 'x.txt' })).body.file.id;
    expect((await server.request('POST', `/api/files/${file}/share`, { token, body: { expiresIn: 0 } })).status).toBe(400);
    expect((await server.request('POST', `/api/files/${file}/share`, { token, body: { expiresIn: 1.5 } })).status).toBe(400);
    const defaulted = await server.request('POST', `/api/files/${file}/share`, { token });
    expect(defaulted.status).toBe(200);
    expect(defaulted.body.expiresAt).toBe(new Date(server.clock.now().getTime() + 24 * HOUR).toISOString());
  });

  it('stops working at once when revoked; a token not of the right form is 400', async () => {
    const { token } = await createUser(server);
    const file = (await uploadFile(server, token, 'x', { name: 'x.txt' })).body.file.id;
    const first = await server.request('POST', `/api/files/${file}/share`, { token, body: {} });
    const second = await server.request('POST', `/api/files/${file}/share`, { token, body: {} });
    expect((await server.request('DELETE', `/api/shares/${first.body.shareId}`, { token })).status).toBe(204);
    expect((await visit(tokenOf(first.body.shareUrl))).status).toBe(404);
    expect((await server.request('DELETE', `/api/shares/${first.body.shareId}`, { token })).status).toBe(404);
    expect((await visit(tokenOf(second.body.shareUrl))).status).toBe(200);
    expect((await visit('short')).status).toBe(400);
  });
});

describe('the share listing', () => {
  it(
    'answers every share in one JSON body, newest first, read from the database a page of 500 at a time',
    { timeout: 180_000 },
    async () => {
      const owner = await createUser(server);
      const file = (await uploadFile(server, owner.token, 'listed bytes', { name: 'listed.txt' })).body.file.id as string;
      const first = await server.request('POST', `/api/files/${file}/share`, { token: owner.token, body: {} });
      expect(first.status).toBe(200);
      // 500 more, made at two earlier instants: pages follow (created_at desc, id) through ties.
      const instants = [1, 2].map((hours) => new Date(server.clock.now().getTime() - hours * HOUR).toISOString());
      const rows = Array.from({ length: 500 }, (_, index) => ({
        id: `listed-${String(index).padStart(3, '0')}-${file}`,
        user_id: owner.user.id,
        kind: 'link' as const,
        file_id: file,
        folder_id: null,
        token_hash: null,
        email: null,
        password_hash: null,
        expires_at: first.body.expiresAt,
        revoked_at: null,
        download_count: 0,
        created_at: instants[index % 2] as string,
      }));
      const db = server.container.database.db;
      await db.insertInto('shares').values(rows).execute();

      const { result: response, tablesRead } = await withTablesRead(server, () =>
        server.request('GET', '/api/shares', { token: owner.token }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const byInstant = (instant: number) => rows.filter((_, index) => index % 2 === instant).map((row) => row.id);
      expect(response.body.shares.map((share: { id: string }) => share.id)).toEqual([first.body.shareId, ...byInstant(0), ...byInstant(1)]);
      expect(response.body.shares[0]).toEqual({
        id: first.body.shareId,
        kind: 'link',
        itemType: 'file',
        itemId: file,
        name: 'listed.txt',
        shareUrl: first.body.shareUrl,
        expiresAt: first.body.expiresAt,
        createdAt: server.clock.now().toISOString(),
        passwordProtected: false,
        role: 'view',
        downloadLimit: null,
        uploadCount: 0,
      });
      expect(tablesRead.filter((table) => table === 'shares')).toHaveLength(2);
    },
  );
});

describe('folder links', () => {
  it('lets a visitor browse and download inside the folder and nothing outside it', async () => {
    const { token } = await createUser(server);
    const tree = await createTree(token);
    const shared = await server.request('POST', `/api/user/folders/${tree.shared}/share`, { token, body: { shareType: 'public' } });
    expect(shared.status).toBe(200);
    const expiresAt = new Date(server.clock.now().getTime() + 24 * HOUR).toISOString();
    expect(shared.body.expiresAt).toBe(expiresAt);
    const link = tokenOf(shared.body.shareUrl);

    expect((await visit(link)).body).toMatchObject({ type: 'folder', name: 'Shared', folderId: tree.shared, expiresAt });
    const top = await visit(`${link}/items`);
    expect(top.body.folders.map((folder: { name: string }) => folder.name)).toEqual(['Inner']);
    expect(top.body.files.map((file: { originalName: string }) => file.originalName)).toEqual(['top.txt']);
    expect(top.body.path).toEqual([{ id: tree.shared, name: 'Shared', parentId: null }]);
    const inner = await visit(`${link}/items?folderId=${tree.inner}`);
    expect(inner.body.files.map((file: { originalName: string }) => file.originalName)).toEqual(['deep.txt']);
    expect(inner.body.path.map((folder: { name: string }) => folder.name)).toEqual(['Shared', 'Inner']);
    expect((await visit(`${link}/files/${tree.deep}/download`)).bytes.toString()).toBe('deep bytes');

    // Nothing outside the shared folder, by any id.
    expect((await visit(`${link}/items?folderId=${tree.outside}`)).status).toBe(404);
    expect((await visit(`${link}/files/${tree.secret}/download`)).status).toBe(404);

    const zip = await visit(`${link}/download`);
    expect(zip.status).toBe(200);
    const entries = await readZip(zip.bytes);
    expect([...entries.keys()].sort()).toEqual(['Inner/', 'Inner/Empty/', 'Inner/deep.txt', 'top.txt']);
    expect((entries.get('Inner/deep.txt') as Buffer).toString()).toBe('deep bytes');
  });

  it('asks for the password, limits wrong guesses, and opens with the access grant', async () => {
    const { token } = await createUser(server);
    await subscribe(server, token, 'PRO');
    const tree = await createTree(token);
    const shared = await server.request('POST', `/api/user/folders/${tree.shared}/share`, {
      token,
      body: { shareType: 'public', password: 'open sesame', expiresIn: 720 },
    });
    expect(shared.status).toBe(200);
    const link = tokenOf(shared.body.shareUrl);

    const locked = await visit(link);
    expect(locked.status).toBe(401);
    expect(locked.body).toMatchObject({ passwordRequired: true });
    expect((await visit(`${link}/download`)).status).toBe(401);
    expect((await visit(`${link}/files/${tree.top}/download`)).status).toBe(401);

    const wrong = await server.request('POST', `/api/public/shares/${link}/access`, { body: { password: 'nope' } });
    expect(wrong.status).toBe(401);
    const unlocked = await server.request('POST', `/api/public/shares/${link}/access`, { body: { password: 'open sesame' } });
    expect(unlocked.status).toBe(200);
    const access = unlocked.body.accessToken as string;
    expect((await visit(link, { 'x-share-access': access })).status).toBe(200);
    expect((await visit(`${link}/files/${tree.top}/download?access=${encodeURIComponent(access)}`)).bytes.toString()).toBe('top bytes');

    for (let attempt = 0; attempt < 9; attempt++)
      await server.request('POST', `/api/public/shares/${link}/access`, { body: { password: 'nope' } });
    const limited = await server.request('POST', `/api/public/shares/${link}/access`, { body: { password: 'open sesame' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});

describe('link passwords', () => {
  it("must be as long as an account's password, for file links and folder links", async () => {
    const { token } = await createUser(server);
    await subscribe(server, token, 'PRO');
    const file = (await uploadFile(server, token, 'x', { name: 'x.txt' })).body.file.id;
    const folder = (await createFolder(server, token, 'Locked')).id;
    const short = await server.request('POST', `/api/files/${file}/share`, { token, body: { password: '12345' } });
    expect(short.status).toBe(400);
    expect(short.body.error).toMatch(/password/);
    expect(
      (await server.request('POST', `/api/user/folders/${folder}/share`, { token, body: { shareType: 'public', password: '12345' } }))
        .status,
    ).toBe(400);
    expect((await server.request('GET', '/api/shares', { token })).body.shares).toEqual([]);
    expect((await server.request('POST', `/api/files/${file}/share`, { token, body: { password: '123456' } })).status).toBe(200);
    expect(
      (await server.request('POST', `/api/user/folders/${folder}/share`, { token, body: { shareType: 'public', password: '123456' } }))
        .status,
    ).toBe(200);
  });

  it('allows 100 wrong passwords per link in 15 minutes from all addresses together', async () => {
    const { token } = await createUser(server);
    await subscribe(server, token, 'PRO');
    const file = (await uploadFile(server, token, 'guarded', { name: 'guarded.txt' })).body.file.id;
    const link = tokenOf(
      (await server.request('POST', `/api/files/${file}/share`, { token, body: { password: 'open sesame' } })).body.shareUrl,
    );
    const unlock = (password: string, from: string) =>
      server.request('POST', `/api/public/shares/${link}/access`, { body: { password }, from });
    // Ten addresses, ten wrong guesses each: each address stays within its own limit.
    for (let address = 1; address <= 10; address += 1) {
      for (let attempt = 0; attempt < 10; attempt += 1) expect((await unlock('nope-nope', `127.0.1.${address}`)).status).toBe(401);
    }
    const limited = await unlock('open sesame', '127.0.1.11');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    server.clock.advance(15 * 60 * 1000 + 1000);
    expect((await unlock('open sesame', '127.0.1.11')).status).toBe(200);
  });
});

describe('private shares', () => {
  it('shares with an e-mail, mails the recipient, and lets them browse and download read-only', async () => {
    const owner = await createUser(server, { firstName: 'Ada', lastName: 'Lovelace' });
    const recipient = await createVerifiedUser(server);
    const tree = await createTree(owner.token);
    const shared = await server.request('POST', `/api/user/folders/${tree.inner}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: `  ${recipient.email.toUpperCase()} ` },
    });
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({
      message: `Folder shared with ${recipient.email}`,
      share: { kind: 'private', email: recipient.email, itemType: 'folder' },
    });

    const mail = await smtp.waitForMail(recipient.email, /shared the folder/);
    expect(mail?.subject).toBe('Ada shared the folder “Inner” with you');
    expect(mail?.text).toContain('http://localhost:3000/shared');
    expect(mail?.html).toContain('href="http://localhost:3000/shared"');

    const mine = await server.request('GET', '/api/shared-with-me', { token: recipient.token });
    expect(mine.body.folders).toEqual([
      expect.objectContaining({
        id: tree.inner,
        name: 'Inner',
        parentId: null,
        shareId: shared.body.share.id,
        owner: { firstName: 'Ada' },
      }),
    ]);
    const sub = await server.request('GET', `/api/user/folders?parentId=${tree.inner}`, { token: recipient.token });
    expect(sub.body.folders.map((folder: { name: string }) => folder.name)).toEqual(['Empty']);
    const files = await server.request('GET', `/api/files?folderId=${tree.inner}`, { token: recipient.token });
    expect(files.body.files.map((file: { originalName: string }) => file.originalName)).toEqual(['deep.txt']);
    const pathOfEmpty = await server.request('GET', `/api/user/folders/${sub.body.folders[0].id}/path`, { token: recipient.token });
    expect(
      pathOfEmpty.body.path.map((folder: { name: string; parentId: string | null }) => [folder.name, folder.parentId === null]),
    ).toEqual([
      ['Inner', true],
      ['Empty', false],
    ]);
    const download = await fetch(`${server.url}/api/files/${tree.deep}/download`, {
      headers: { authorization: `Bearer ${recipient.token}` },
    });
    expect(await download.text()).toBe('deep bytes');
    const link = await server.request('POST', `/api/user/folders/${tree.inner}/download-link`, { token: recipient.token });
    expect(link.status).toBe(200);

    // Read-only (a viewer's change is 403 READ_ONLY_SHARE), and nothing above or beside the shared folder.
    expect(
      (await server.request('POST', '/api/user/folders', { token: recipient.token, body: { name: 'x', parentId: tree.inner } })).status,
    ).toBe(403);
    expect((await uploadFile(server, recipient.token, 'x', { name: 'x.txt', folderId: tree.inner })).status).toBe(403);
    expect((await server.request('DELETE', `/api/files/${tree.deep}`, { token: recipient.token })).status).toBe(403);
    expect((await server.request('PATCH', `/api/user/folders/${tree.inner}`, { token: recipient.token, body: { name: 'y' } })).status).toBe(
      403,
    );
    expect((await server.request('GET', `/api/user/folders?parentId=${tree.shared}`, { token: recipient.token })).status).toBe(404);
    expect((await server.request('GET', `/api/files?folderId=${tree.outside}`, { token: recipient.token })).status).toBe(404);
    expect(
      (await fetch(`${server.url}/api/files/${tree.top}/download`, { headers: { authorization: `Bearer ${recipient.token}` } })).status,
    ).toBe(404);

    expect((await server.request('DELETE', `/api/shares/${shared.body.share.id}`, { token: owner.token })).status).toBe(204);
    expect((await server.request('GET', '/api/shared-with-me', { token: recipient.token })).body.folders).toEqual([]);
    expect((await server.request('GET', `/api/files?folderId=${tree.inner}`, { token: recipient.token })).status).toBe(404);
  });

  it('answers a refused share with its reason, refuses an unknown kind, and sends nothing to someone who turned sharing e-mails off', async () => {
    const owner = await createUser(server);
    const folder = (await createFolder(server, owner.token, 'Mine')).id;
    const refused = await server.request('POST', `/api/user/folders/${folder}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: 'not-an-email' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'Please enter a valid e-mail address.', code: 'INVALID_EMAIL' });
    expect(
      (await server.request('POST', `/api/user/folders/${folder}/share`, { token: owner.token, body: { shareType: 'secret' } })).status,
    ).toBe(400);

    const quiet = await createVerifiedUser(server);
    const settings = (await server.request('GET', '/api/user/settings', { token: quiet.token })).body.settings;
    await server.request('PUT', '/api/user/settings', {
      token: quiet.token,
      body: { ...settings, notifications: { ...settings.notifications, fileSharing: false } },
    });
    // Only the verification mail (which may still be on its way): then nothing more.
    await smtp.waitForMail(quiet.email, 'Verify your CloudVault e-mail address');
    expect(
      (
        await server.request('POST', `/api/user/folders/${folder}/share`, {
          token: owner.token,
          body: { shareType: 'private', email: quiet.email },
        })
      ).status,
    ).toBe(200);
    // Every queued message has been tried once drain() answers: an invitation not sent by now was never queued.
    await server.container.mail.drain();
    expect(
      smtp.messages
        .filter((message) => message.to && !Array.isArray(message.to) && message.to.text === quiet.email)
        .map((message) => message.subject),
    ).toEqual(['Verify your CloudVault e-mail address']);
  });

  it('sends at most 20 invitations per owner in an hour, then answers 429 with Retry-After', async () => {
    const owner = await createUser(server);
    const folder = (await createFolder(server, owner.token, 'Flyers')).id;
    const share = (email: string) =>
      server.request('POST', `/api/user/folders/${folder}/share`, { token: owner.token, body: { shareType: 'private', email } });
    const stamp = Date.now();
    for (let index = 0; index < 20; index += 1) expect((await share(`invitee-${stamp}-${index}@example.com`)).status).toBe(200);

    const limited = await share(`invitee-${stamp}-20@example.com`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    server.clock.advance(HOUR);
    expect((await share(`invitee-${stamp}-20@example.com`)).status).toBe(200);
  });
});

describe('mail without SMTP', () => {
  it('writes each message as a parseable .eml file in DATA_DIR/outbox', async () => {
    const local = await startTestServer();
    try {
      const owner = await createUser(local);
      const folder = (await createFolder(local, owner.token, 'Outbox test')).id;
      await local.request('POST', `/api/user/folders/${folder}/share`, {
        token: owner.token,
        body: { shareType: 'private', email: 'friend@example.com' },
      });
      // Beside the owner's verification mail, each message a whole, parseable file.
      const parsed = await outboxMail(local.dataDir, 'friend@example.com', /Outbox test/);
      expect((await readdir(path.join(local.dataDir, 'outbox'))).filter((name) => !name.endsWith('.eml'))).toEqual([]);
      expect(parsed.to).toMatchObject({ text: 'friend@example.com' });
      expect(parsed.subject).toContain('Outbox test');
      expect(parsed.text).toContain('/register');
    } finally {
      await local.close();
    }
  });

  it('keeps a message that could not be sent and sends it when its retry is due', async () => {
    const sink = await startSmtpSink();
    const flaky = await startTestServer({ env: { SMTP_URL: sink.url } });
    try {
      await sink.close();
      const owner = await createUser(flaky);
      const folder = (await createFolder(flaky, owner.token, 'Retry')).id;
      await flaky.request('POST', `/api/user/folders/${folder}/share`, {
        token: owner.token,
        body: { shareType: 'private', email: 'retry@example.com' },
      });
      const db = flaky.container.database.db;
      let queued;
      for (let waited = 0; waited < 5000; waited += 50) {
        queued = await db.selectFrom('mail_queue').selectAll().where('recipient', '=', 'retry@example.com').executeTakeFirst();
        if (queued?.last_error) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(queued).toMatchObject({ recipient: 'retry@example.com', sent_at: null, attempts: 1 });
      expect(queued?.last_error).toBeTruthy();
      // Not due yet: the next attempt waits a minute.
      expect(await flaky.container.mail.deliverDue()).toBe(0);
      const back = await startSmtpSink(Number(new URL(sink.url).port));
      try {
        flaky.clock.advance(2 * 60 * 1000);
        // The owner's verification mail failed the same way and is due too.
        expect(await flaky.container.mail.deliverDue()).toBe(2);
        const delivered = await back.waitForMail('retry@example.com', /Retry/);
        expect(delivered?.to).toMatchObject({ text: 'retry@example.com' });
        expect(
          await db
            .selectFrom('mail_queue')
            .select(['attempts', 'sent_at'])
            .where('recipient', '=', 'retry@example.com')
            .executeTakeFirstOrThrow(),
        ).toMatchObject({ attempts: 2, sent_at: expect.any(String) });
      } finally {
        await back.close();
      }
    } finally {
      await flaky.close();
    }
  });
});
