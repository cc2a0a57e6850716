import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { totpCode } from '../src/lib/totp.ts';
import { createVerifiedUser } from './helpers/factories.ts';
import { readZip } from './helpers/read-zip.ts';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
let smtp: SmtpSink;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

beforeAll(async () => {
  smtp = await startSmtpSink();
  // Free gets 10 MiB here, so storage alerts take small uploads.
  const plans = JSON.parse(await readFile(new URL('../config/plans.json', import.meta.url), 'utf8')) as Array<Record<string, unknown>>;
  Object.assign(plans.find((plan) => plan.id === 'FREE') as object, { storageLimit: 10 * MiB, maxFileSize: 10 * MiB });
  const plansFile = path.join(os.tmpdir(), `cloudvault-account-plans-${process.pid}.json`);
  await writeFile(plansFile, JSON.stringify(plans));
  server = await startTestServer({ env: { SMTP_URL: smtp.url, PLANS_FILE: plansFile } });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const MiB = 1024 * 1024;
const login = (body: Record<string, string>, userAgent = FIREFOX) =>
  server.request('POST', '/api/auth/login', { body, headers: { 'user-agent': userAgent } });
const mailsTo = (email: string) => smtp.messages.filter((message) => message.to && !Array.isArray(message.to) && message.to.text === email);
/** The mails to `email` besides the verification mail every registration sends. */
const notificationsTo = (email: string) => mailsTo(email).filter((message) => message.subject !== 'Verify your CloudVault e-mail address');

/** The first mail to `email` with this subject, once it has arrived. */
async function mailWithSubject(email: string, subject: string) {
  for (let waited = 0; waited < 5000; waited += 20) {
    const found = mailsTo(email).find((mail) => mail.subject === subject);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(
    `no mail "${subject}" to ${email}; got: ${mailsTo(email)
      .map((mail) => mail.subject)
      .join(', ')}`,
  );
}

async function settingsWith(token: string, change: (settings: any) => void) {
  const settings = (await server.request('GET', '/api/user/settings', { token })).body.settings;
  change(settings);
  expect((await server.request('PUT', '/api/user/settings', { token, body: settings })).status).toBe(200);
}

describe('profile', () => {
  it('changes the names (not the e-mail) and requires both', async () => {
    const user = await createUser(server);
    const updated = await server.request('PUT', '/api/user/profile', {
      token: user.token,
      body: { firstName: '  Grace ', lastName: 'Hopper', email: 'x@example.com' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.user).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', email: user.email });
    expect((await server.request('GET', '/api/auth/profile', { token: user.token })).body.user.firstName).toBe('Grace');
    const missing = await server.request('PUT', '/api/user/profile', { token: user.token, body: { firstName: ' ', lastName: 'Hopper' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('First name and last name are required');
  });

  it('changes the password, signs every other session out and sends a security alert', async () => {
    const user = await createUser(server);
    const other = (await login({ email: user.email, password: user.password })).body.token;
    const wrong = await server.request('PUT', '/api/user/password', {
      token: user.token,
      body: { currentPassword: 'nope', newPassword: 'a new secret' },
    });
    expect(wrong.status).toBe(400);
    expect(
      (
        await server.request('PUT', '/api/user/password', {
          token: user.token,
          body: { currentPassword: user.password, newPassword: '12345' },
        })
      ).status,
    ).toBe(400);
    const changed = await server.request('PUT', '/api/user/password', {
      token: user.token,
      body: { currentPassword: user.password, newPassword: 'a new secret' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.message).toBe('Password changed successfully!');
    expect((await server.request('GET', '/api/auth/profile', { token: other })).status).toBe(401);
    expect((await server.request('GET', '/api/auth/profile', { token: user.token })).status).toBe(200);
    expect((await login({ email: user.email, password: user.password })).status).toBe(401);
    expect((await login({ email: user.email, password: 'a new secret' })).status).toBe(200);
    expect((await mailWithSubject(user.email, 'Your CloudVault password was changed')).text).toContain('every other device was signed out');
  });

  it('shows real figures and the recent activity of the account', async () => {
    const user = await createUser(server);
    server.clock.advance(1000);
    await login({ email: user.email, password: user.password }, CHROME);
    await uploadFile(server, user.token, 'hello', { name: 'hello.txt' });
    const folder = (await createFolder(server, user.token, 'F')).id;
    await server.request('POST', `/api/user/folders/${folder}/share`, { token: user.token, body: { shareType: 'public' } });
    await subscribe(server, user.token, 'PRO');
    const overview = await server.request('GET', '/api/user/overview', { token: user.token });
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({ counts: { files: 1, folders: 1, shares: 1 }, lastSignIn: { device: 'Chrome on Windows' } });
    expect(overview.body.activity.map((entry: { type: string }) => entry.type).sort()).toEqual([
      'plan_change',
      'share',
      'sign_in',
      'upload',
    ]);
    expect(overview.body.activity.find((entry: { type: string }) => entry.type === 'plan_change').details).toEqual({
      type: 'upgrade',
      planName: 'Pro',
    });
  });
});

describe('notifications', () => {
  it('alerts a sign-in from a new device by e-mail and in the bell, as the settings say', async () => {
    // Registration opened a session from this test's own client: Chrome is a new device.
    const user = await createUser(server);
    await login({ email: user.email, password: user.password }, CHROME);
    const alert = await mailWithSubject(user.email, 'New sign-in to your CloudVault account');
    expect(alert.text).toContain('Chrome on Windows');
    const bell = await server.request('GET', '/api/notifications', { token: user.token });
    expect(bell.body.unread).toBe(1);
    expect(bell.body.notifications[0]).toMatchObject({ type: 'new_sign_in', read: false, details: { device: 'Chrome on Windows' } });
    expect((await server.request('POST', '/api/notifications/read', { token: user.token })).status).toBe(204);
    expect((await server.request('GET', '/api/notifications', { token: user.token })).body.unread).toBe(0);

    // A device seen before is not news; with securityAlerts off nothing is sent at all.
    await login({ email: user.email, password: user.password }, CHROME);
    await settingsWith(user.token, (settings) => {
      settings.notifications.securityAlerts = false;
    });
    await login({ email: user.email, password: user.password }, 'curl/8.0');
    // Every queued message has been tried once drain() answers: an alert not sent by now was never queued.
    await server.container.mail.drain();
    expect(notificationsTo(user.email)).toHaveLength(1);
    expect((await server.request('GET', '/api/notifications', { token: user.token })).body.notifications).toHaveLength(1);
  });

  it("writes e-mails in the recipient's language", async () => {
    const owner = await createUser(server, { firstName: 'Marie' });
    const recipient = await createVerifiedUser(server);
    await settingsWith(recipient.token, (settings) => {
      settings.appearance.language = 'de';
    });
    const folder = (await createFolder(server, owner.token, 'Urlaub')).id;
    await server.request('POST', `/api/user/folders/${folder}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: recipient.email },
    });
    const mail = await mailWithSubject(recipient.email, 'Marie hat den Ordner „Urlaub“ mit Ihnen geteilt');
    expect(mail.text).toContain('In CloudVault öffnen');
    await server.request('PUT', '/api/user/password', {
      token: recipient.token,
      body: { currentPassword: recipient.password, newPassword: 'ein neues Passwort' },
    });
    expect((await mailWithSubject(recipient.email, 'Ihr CloudVault-Passwort wurde geändert')).text).toContain('UTC');
  });

  it('sends storage alerts at 80 % and 90 %, in the bell only when e-mail is off', async () => {
    const user = await createUser(server);
    const chunk = Buffer.alloc(Math.ceil(10 * MiB * 0.41), 1);
    await settingsWith(user.token, (settings) => {
      settings.notifications.email = false;
    });
    await uploadFile(server, user.token, chunk, { name: 'a.bin' });
    await uploadFile(server, user.token, chunk, { name: 'b.bin' });
    const bell = await server.request('GET', '/api/notifications', { token: user.token });
    expect(
      bell.body.notifications.map((entry: { type: string; details: { percent: string } }) => `${entry.type} ${entry.details.percent}`),
    ).toEqual(['storage_alert 80']);
    await settingsWith(user.token, (settings) => {
      settings.notifications.email = true;
    });
    await uploadFile(server, user.token, Buffer.alloc(MiB, 2), { name: 'c.bin' });
    expect((await mailWithSubject(user.email, 'Your CloudVault storage is 90% full')).text).toContain('of your 10 MB');
    expect(notificationsTo(user.email)).toHaveLength(1);
  });
});

describe('two-factor sign-in', () => {
  it('enrols with a code, then asks for one at sign-in; a recovery code works once; turning it off needs a code', async () => {
    const user = await createUser(server);
    const setup = await server.request('POST', '/api/auth/2fa/setup', { token: user.token });
    expect(setup.status).toBe(200);
    expect(setup.body.otpauthUrl).toContain(`secret=${setup.body.secret}`);
    expect(setup.body.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    const secret = setup.body.secret as string;
    expect((await server.request('POST', '/api/auth/2fa/enable', { token: user.token, body: { code: '000000' } })).status).toBe(400);
    expect((await login({ email: user.email, password: user.password })).status).toBe(200);

    const enabled = await server.request('POST', '/api/auth/2fa/enable', {
      token: user.token,
      body: { code: totpCode(secret, server.clock.now()) },
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    expect((await server.request('GET', '/api/auth/profile', { token: user.token })).body.user.twoFactorEnabled).toBe(true);
    expect((await server.request('GET', '/api/user/settings', { token: user.token })).body.settings.privacy.twoFactorAuth).toBe(true);

    const asked = await login({ email: user.email, password: user.password });
    expect(asked.status).toBe(401);
    expect(asked.body.twoFactorRequired).toBe(true);
    const wrongCode = await login({ email: user.email, password: user.password, totpCode: '123456' });
    expect(wrongCode.status).toBe(401);
    // The next code: the one that turned it on is used up.
    server.clock.advance(30_000);
    expect((await login({ email: user.email, password: 'wrong', totpCode: totpCode(secret, server.clock.now()) })).status).toBe(401);
    expect((await login({ email: user.email, password: user.password, totpCode: totpCode(secret, server.clock.now()) })).status).toBe(200);

    const recovery = enabled.body.recoveryCodes[0] as string;
    expect((await login({ email: user.email, password: user.password, totpCode: recovery.toUpperCase() })).status).toBe(200);
    expect((await login({ email: user.email, password: user.password, totpCode: recovery })).status).toBe(401);

    expect(
      (await server.request('POST', '/api/auth/2fa/disable', { token: user.token, body: { code: '111111', password: user.password } }))
        .status,
    ).toBe(400);
    expect(
      (
        await server.request('POST', '/api/auth/2fa/disable', {
          token: user.token,
          body: { code: enabled.body.recoveryCodes[1], password: user.password },
        })
      ).status,
    ).toBe(200);
    expect((await login({ email: user.email, password: user.password })).status).toBe(200);
  });

  it('accepts each code once, at sign-in, enabling and turning it off, also within the window of neighbouring codes', async () => {
    const user = await createUser(server);
    const secret = (await server.request('POST', '/api/auth/2fa/setup', { token: user.token })).body.secret as string;
    const enabling = totpCode(secret, server.clock.now());
    expect((await server.request('POST', '/api/auth/2fa/enable', { token: user.token, body: { code: enabling } })).status).toBe(200);
    const signIn = (code: string) => login({ email: user.email, password: user.password, totpCode: code });

    expect((await signIn(enabling)).status).toBe(401);
    server.clock.advance(30_000);
    const next = totpCode(secret, server.clock.now());
    expect((await signIn(next)).status).toBe(200);
    const replayed = await signIn(next);
    expect(replayed.status).toBe(401);
    expect(replayed.body.twoFactorRequired).toBe(true);
    // Still inside the window a code is accepted in, but not newer than the last one used.
    expect((await signIn(enabling)).status).toBe(401);
    expect(
      (await server.request('POST', '/api/auth/2fa/disable', { token: user.token, body: { code: next, password: user.password } })).status,
    ).toBe(400);

    server.clock.advance(30_000);
    const later = totpCode(secret, server.clock.now());
    expect(
      (await server.request('POST', '/api/auth/2fa/disable', { token: user.token, body: { code: later, password: user.password } })).status,
    ).toBe(200);
    // Turned on again with a new secret within the same half-minute: the new app's code works.
    const renewed = (await server.request('POST', '/api/auth/2fa/setup', { token: user.token })).body.secret as string;
    expect(
      (await server.request('POST', '/api/auth/2fa/enable', { token: user.token, body: { code: totpCode(renewed, server.clock.now()) } }))
        .status,
    ).toBe(200);
    expect((await signIn(totpCode(renewed, server.clock.now()))).status).toBe(401);
  });
});

describe('re-authentication', () => {
  it('turns two-factor off only with the password as well as a code; a wrong password uses no code up', async () => {
    const user = await createUser(server);
    const secret = (await server.request('POST', '/api/auth/2fa/setup', { token: user.token })).body.secret as string;
    const enabled = await server.request('POST', '/api/auth/2fa/enable', {
      token: user.token,
      body: { code: totpCode(secret, server.clock.now()) },
    });
    const recovery = enabled.body.recoveryCodes[0] as string;
    const disable = (body: object) => server.request('POST', '/api/auth/2fa/disable', { token: user.token, body });

    const missing = await disable({ code: recovery });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/password/);
    const wrong = await disable({ code: recovery, password: 'not my password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('INCORRECT_PASSWORD');
    expect((await disable({ code: recovery, password: '' })).status).toBe(400);
    expect((await server.request('GET', '/api/auth/profile', { token: user.token })).body.user.twoFactorEnabled).toBe(true);
    expect((await disable({ code: recovery, password: user.password })).status).toBe(200);
    expect((await server.request('GET', '/api/auth/profile', { token: user.token })).body.user.twoFactorEnabled).toBe(false);
  });

  it('deletes the account only with its password: 400 without one or with a wrong one, and nothing is deleted', async () => {
    const user = await createUser(server);
    await uploadFile(server, user.token, 'kept', { name: 'kept.txt' });
    const noBody = await server.request('DELETE', '/api/user/account', { token: user.token });
    expect(noBody.status).toBe(400);
    expect(noBody.body.error).toMatch(/password/);
    expect((await server.request('DELETE', '/api/user/account', { token: user.token, body: {} })).status).toBe(400);
    const wrong = await server.request('DELETE', '/api/user/account', { token: user.token, body: { password: 'not my password' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('INCORRECT_PASSWORD');
    expect((await server.request('GET', '/api/files', { token: user.token })).body.files).toHaveLength(1);
    expect((await login({ email: user.email, password: user.password })).status).toBe(200);
  });

  it('counts wrong passwords like failed sign-ins from that address, so a stolen session cannot guess faster', async () => {
    const user = await createUser(server);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect(
        (
          await server.request('DELETE', '/api/user/account', {
            token: user.token,
            body: { password: `guess-${attempt}` },
            from: '127.0.0.5',
          })
        ).status,
      ).toBe(400);
    }
    const limited = await server.request('DELETE', '/api/user/account', {
      token: user.token,
      body: { password: user.password },
      from: '127.0.0.5',
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner, elsewhere, is not locked out.
    expect((await login({ email: user.email, password: user.password })).status).toBe(200);
    server.clock.advance(15 * 60 * 1000 + 1000);
  });
});

describe('export and deletion', () => {
  it('exports account.json and every file in its folder path, byte for byte', async () => {
    const user = await createUser(server);
    const folder = (await createFolder(server, user.token, 'Photos')).id;
    const inner = (await createFolder(server, user.token, 'Trip', folder)).id;
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, index) => index % 251));
    await uploadFile(server, user.token, bytes, { name: 'beach.jpg', folderId: inner });
    await uploadFile(server, user.token, 'notes', { name: 'notes.txt' });
    const response = await fetch(`${server.url}/api/user/export`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toContain(`CloudVault-data-${server.clock.now().toISOString().slice(0, 10)}.zip`);
    const entries = await readZip(Buffer.from(await response.arrayBuffer()));
    expect(entries.get('files/Photos/Trip/beach.jpg')).toEqual(bytes);
    expect((entries.get('files/notes.txt') as Buffer).toString()).toBe('notes');
    const account = JSON.parse((entries.get('account.json') as Buffer).toString());
    expect(account.user.email).toBe(user.email);
    expect(Object.keys(account).sort()).toEqual([
      'billingHistory',
      'files',
      'folders',
      'history',
      'settings',
      'shares',
      'subscription',
      'user',
    ]);
    expect(account.files).toHaveLength(2);

    // The same zip through a signed link, as the browser saves it.
    const link = await server.request('POST', '/api/user/export/download-link', { token: user.token });
    expect(link.status).toBe(200);
    const linked = await fetch(`${server.url}${link.body.url}`);
    expect(linked.status).toBe(200);
    expect((await readZip(Buffer.from(await linked.arrayBuffer()))).get('files/Photos/Trip/beach.jpg')).toEqual(bytes);
  });

  it('deletes every row and blob of the user, ends the subscription and revokes every token', async () => {
    const user = await createUser(server);
    const keep = await createVerifiedUser(server);
    await uploadFile(server, keep.token, 'stays', { name: 'stays.txt' });
    await subscribe(server, user.token, 'PRO');
    const other = (await login({ email: user.email, password: user.password })).body.token;
    const file = await uploadFile(server, user.token, 'bye', { name: 'bye.txt' });
    await server.request('DELETE', `/api/files/${file.body.file.id}`, { token: user.token });
    await uploadFile(server, user.token, 'bye too', { name: 'bye2.txt' });
    const folder = (await createFolder(server, user.token, 'F')).id;
    await server.request('POST', `/api/user/folders/${folder}/share`, {
      token: user.token,
      body: { shareType: 'private', email: keep.email },
    });
    const blobsBefore = await server.blobCount();

    const deleted = await server.request('DELETE', '/api/user/account', { token: user.token, body: { password: user.password } });
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe('Account deleted successfully');
    expect(await server.blobCount()).toBe(blobsBefore - 2);
    expect((await server.request('GET', '/api/auth/profile', { token: user.token })).status).toBe(401);
    expect((await server.request('GET', '/api/auth/profile', { token: other })).status).toBe(401);
    expect((await login({ email: user.email, password: user.password })).status).toBe(401);
    expect((await server.request('GET', '/api/shared-with-me', { token: keep.token })).body.folders).toEqual([]);

    const db = server.container.database.db;
    for (const table of [
      'sessions',
      'folders',
      'files',
      'shares',
      'subscriptions',
      'invoices',
      'subscription_history',
      'billing_customers',
      'activity',
      'notifications',
      'user_settings',
      'account_tokens',
    ] as const) {
      const rows = await db.selectFrom(table).select('user_id').where('user_id', '=', user.user.id).execute();
      expect(rows, table).toHaveLength(0);
    }
    expect(await db.selectFrom('users').select('id').where('id', '=', user.user.id).execute()).toHaveLength(0);
  });
});
