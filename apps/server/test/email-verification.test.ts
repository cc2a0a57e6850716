import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, newUserInput } from '@cloudvault/test-support/accounts';
import { createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { createVerifiedUser } from './helpers/factories.ts';
import { linkToken, outboxMail } from './helpers/outbox.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest, migrationsFor } from '../src/db/migrate.ts';
import { createTestDatabase } from './helpers/test-database.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const HOUR = 60 * 60 * 1000;
const VERIFY_SUBJECT = 'Verify your CloudVault e-mail address';
let server: TestServer;

// No SMTP_URL: every message lands as an .eml file in DATA_DIR/outbox, read from there.
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** The token of the newest-arrived verification mail to `email`, from the outbox. */
async function verificationToken(email: string, subject: string | RegExp = VERIFY_SUBJECT): Promise<string> {
  return linkToken(await outboxMail(server.dataDir, email, subject), server.container.config.publicUrl, '/verify-email');
}

const verify = (token: unknown) => server.request('POST', '/api/auth/verify-email', { body: { token } });
const resend = (token: string) => server.request('POST', '/api/auth/resend-verification', { token });
const queuedTo = async (email: string) =>
  (await server.container.database.db.selectFrom('mail_queue').select('subject').where('recipient', '=', email).execute()).map(
    (row) => row.subject,
  );

describe('e-mail verification', () => {
  it('registers at once, mails a /verify-email link, and verifies the address with it once', async () => {
    const input = newUserInput();
    const registered = await server.request('POST', '/api/auth/register', { body: input });
    expect(registered.status).toBe(201);
    expect(registered.body.user).toMatchObject({ email: input.email, emailVerified: false, role: 'user' });

    const mail = await outboxMail(server.dataDir, input.email, VERIFY_SUBJECT);
    expect(mail.text).toMatch(/^Hello Ada,/);
    const token = linkToken(mail, 'http://localhost:3000', '/verify-email');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain(`href="http://localhost:3000/verify-email?token=${token}"`);

    // Only the hash is stored: the database cannot open the link.
    const rows = await server.container.database.db
      .selectFrom('account_tokens')
      .selectAll()
      .where('user_id', '=', registered.body.user.id)
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({ purpose: 'verify_email', token_hash: createHash('sha256').update(token).digest('hex'), used_at: null }),
    ]);
    expect(JSON.stringify(rows)).not.toContain(token);

    const verified = await verify(token);
    expect(verified.status).toBe(200);
    expect(verified.body.user).toEqual({ ...registered.body.user, emailVerified: true });
    expect((await server.request('GET', '/api/auth/profile', { token: registered.body.token })).body.user.emailVerified).toBe(true);

    const again = await verify(token);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      error: 'This verification link is invalid, used or expired. Ask for a new one.',
      code: 'VERIFICATION_LINK_INVALID',
    });
  });

  it('refuses unknown, malformed and expired tokens: a link lasts 48 hours', async () => {
    for (const token of ['A'.repeat(43), '', 'x'.repeat(256), randomBytes(32).toString('base64url')]) {
      expect((await verify(token)).status, token).toBe(400);
    }
    for (const body of [{}, { token: 42 }, { token: 'x'.repeat(257) }, { token: 'a', extra: 1 }]) {
      const response = await server.request('POST', '/api/auth/verify-email', { body });
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual(expect.any(String));
    }

    const late = await createUser(server);
    const early = await createUser(server);
    const lateToken = await verificationToken(late.email);
    const earlyToken = await verificationToken(early.email);
    server.clock.advance(48 * HOUR - 60_000);
    expect((await verify(earlyToken)).status).toBe(200);
    server.clock.advance(60_000);
    expect((await verify(lateToken)).status).toBe(400);
    expect((await server.request('GET', '/api/auth/profile', { token: late.token })).body.user.emailVerified).toBe(false);
  });

  it("resends in the user's language, 5 times an hour, then answers 429 with Retry-After", async () => {
    const user = await createUser(server);
    const settings = (await server.request('GET', '/api/user/settings', { token: user.token })).body.settings;
    settings.appearance.language = 'de';
    expect((await server.request('PUT', '/api/user/settings', { token: user.token, body: settings })).status).toBe(200);

    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await resend(user.token);
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ message: 'We sent you a new verification link. Check your inbox.' });
    }
    const limited = await resend(user.token);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await queuedTo(user.email)).sort()).toEqual([
      ...Array(5).fill('Bestätigen Sie Ihre CloudVault-E-Mail-Adresse'),
      VERIFY_SUBJECT,
    ]);

    // A resent link works like the first (and uses every other one up).
    const resent = await outboxMail(server.dataDir, user.email, 'Bestätigen Sie Ihre CloudVault-E-Mail-Adresse');
    expect(resent.text).toContain('E-Mail-Adresse bestätigen');
    expect((await verify(linkToken(resent, 'http://localhost:3000', '/verify-email'))).status).toBe(200);
    expect((await verify(await verificationToken(user.email))).status).toBe(400);

    server.clock.advance(HOUR);
    // Verified now: the same answer, and nothing is sent.
    expect((await resend(user.token)).status).toBe(202);
    expect(await queuedTo(user.email)).toHaveLength(6);
    expect((await server.request('POST', '/api/auth/resend-verification')).status).toBe(401);
  });

  it('makes ADMIN_EMAILS accounts admins once their address is verified', async () => {
    const admin = await startTestServer({ env: { ADMIN_EMAILS: 'Boss@Example.com, ops@example.com' } });
    try {
      const boss = await admin.request('POST', '/api/auth/register', { body: newUserInput({ email: 'boss@example.com' }) });
      const staff = await admin.request('POST', '/api/auth/register', { body: newUserInput() });
      expect(boss.body.user.role).toBe('user');
      const token = linkToken(
        await outboxMail(admin.dataDir, 'boss@example.com', VERIFY_SUBJECT),
        'http://localhost:3000',
        '/verify-email',
      );
      expect((await admin.request('POST', '/api/auth/verify-email', { body: { token } })).body.user.role).toBe('admin');
      expect((await admin.request('GET', '/api/auth/profile', { token: boss.body.token })).body.user.role).toBe('admin');
      expect((await admin.request('GET', '/api/auth/profile', { token: staff.body.token })).body.user.role).toBe('user');
    } finally {
      await admin.close();
    }
  });
});

describe('the leak: private shares need a verified address', () => {
  it('hides a folder shared with an address from whoever registers it, until the mailed link verifies it', async () => {
    const owner = await createVerifiedUser(server, { firstName: 'Ada' });
    const victim = `victim-${randomBytes(4).toString('hex')}@corp.example`;
    const folder = (await createFolder(server, owner.token, 'Payroll')).id;
    const inner = (await createFolder(server, owner.token, 'March', folder)).id;
    const file = (await uploadFile(server, owner.token, 'salaries', { name: 'salaries.csv', folderId: inner })).body.file.id as string;
    expect(
      (
        await server.request('POST', `/api/user/folders/${folder}/share`, {
          token: owner.token,
          body: { shareType: 'private', email: victim },
        })
      ).status,
    ).toBe(200);
    const invitation = await outboxMail(server.dataDir, victim, /shared the folder/);
    expect(invitation.text).toContain(`http://localhost:3000/register?email=${encodeURIComponent(victim)}`);

    // Somebody else registers the address first: their own files work, the share stays hidden everywhere.
    const squatter = await createUser(server, { email: victim });
    expect((await uploadFile(server, squatter.token, 'mine', { name: 'mine.txt' })).status).toBe(201);
    const as = (method: string, path: string) => server.request(method, path, { token: squatter.token });
    expect((await as('GET', '/api/shared-with-me')).body.folders).toEqual([]);
    for (const [method, path] of [
      ['GET', `/api/user/folders?parentId=${folder}`],
      ['GET', `/api/user/folders/${inner}/path`],
      ['GET', `/api/files?folderId=${inner}`],
      ['GET', `/api/files/${file}/download`],
      ['POST', `/api/files/${file}/download-link`],
      ['GET', `/api/user/folders/${folder}/download`],
      ['POST', `/api/user/folders/${folder}/download-link`],
    ] as const) {
      expect((await as(method, path)).status, `${method} ${path}`).toBe(404);
    }
    // A share made now is mailed to the address, not announced in the unproven account's bell.
    const later = (await createFolder(server, owner.token, 'Bonus')).id;
    await server.request('POST', `/api/user/folders/${later}/share`, { token: owner.token, body: { shareType: 'private', email: victim } });
    expect(await outboxMail(server.dataDir, victim, 'Ada shared the folder “Bonus” with you')).toBeTruthy();
    expect((await as('GET', '/api/notifications')).body.notifications).toEqual([]);
    // Without the mail there is no way in: guessing a token fails.
    expect((await verify(randomBytes(32).toString('base64url'))).status).toBe(400);
    expect((await as('GET', '/api/shared-with-me')).body.folders).toEqual([]);

    // The mailbox's owner opens the verification link: now the account sees the shares.
    expect((await verify(await verificationToken(victim))).status).toBe(200);
    expect((await as('GET', '/api/shared-with-me')).body.folders.map((shared: { name: string }) => shared.name)).toEqual([
      'Bonus',
      'Payroll',
    ]);
    expect(
      (await as('GET', `/api/files?folderId=${inner}`)).body.files.map((listed: { originalName: string }) => listed.originalName),
    ).toEqual(['salaries.csv']);
    const download = await fetch(`${server.url}/api/files/${file}/download`, { headers: { authorization: `Bearer ${squatter.token}` } });
    expect(await download.text()).toBe('salaries');
  });
});

describe('the leak after a deletion', () => {
  it("shows nothing shared with a deleted account's address to whoever registers it next", async () => {
    const owner = await createVerifiedUser(server);
    const victim = await createVerifiedUser(server);
    const folder = (await createFolder(server, owner.token, 'Contracts')).id;
    await server.request('POST', `/api/user/folders/${folder}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: victim.email },
    });
    expect((await server.request('GET', '/api/shared-with-me', { token: victim.token })).body.folders).toHaveLength(1);
    expect((await server.request('DELETE', '/api/user/account', { token: victim.token, body: { password: victim.password } })).status).toBe(
      200,
    );

    const next = await createUser(server, { email: victim.email });
    expect((await server.request('GET', '/api/shared-with-me', { token: next.token })).body.folders).toEqual([]);
    expect((await server.request('GET', `/api/user/folders?parentId=${folder}`, { token: next.token })).status).toBe(404);
    // The deleted account's tokens went with it; only a link mailed to the new account verifies it.
    expect(
      await server.container.database.db.selectFrom('account_tokens').select('user_id').where('user_id', '=', victim.user.id).execute(),
    ).toEqual([]);
  });
});

describe('accounts from before verification', () => {
  it('start unverified: their address was never proven', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-migration-'));
    const database = await createTestDatabase();
    const handle = openDatabase({ databaseUrl: database.url, dataDir });
    try {
      const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrationsFor(handle.dialect) } });
      expect((await migrator.migrateTo('2026-11-22-08-listing-entries')).error).toBeUndefined();
      const now = '2026-01-01T00:00:00.000Z';
      await (handle.db as Kysely<any>)
        .insertInto('users')
        .values({
          id: 'old-user',
          email: 'old@example.com',
          first_name: 'Old',
          last_name: 'Timer',
          password_hash: 'x',
          created_at: now,
          updated_at: now,
        })
        .execute();
      await migrateToLatest(handle.db, handle.dialect);
      expect(await handle.db.selectFrom('users').select(['id', 'email_verified_at']).execute()).toEqual([
        { id: 'old-user', email_verified_at: null },
      ]);
    } finally {
      await handle.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
