import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { totpCode } from '../src/lib/totp.ts';
import { mailedToken } from './helpers/factories.ts';
import { startServerWithSmtp } from './helpers/server-with-smtp.ts';
import type { SmtpSink } from './helpers/smtp-sink.ts';
import type { TestServer } from './helpers/test-server.ts';

const HOUR = 60 * 60 * 1000;
const RESET_SUBJECT = 'Reset your CloudVault password';
const ALERT_SUBJECT = 'Your CloudVault password was changed';
let server: TestServer;
let smtp: SmtpSink;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ server, smtp, close } = await startServerWithSmtp());
});
afterAll(() => close());

const forgot = (email: unknown) => server.request('POST', '/api/auth/forgot-password', { body: { email } });
const reset = (token: unknown, password: unknown) => server.request('POST', '/api/auth/reset-password', { body: { token, password } });
const login = (body: Record<string, string>) => server.request('POST', '/api/auth/login', { body });
const queuedTo = async (email: string) =>
  (await server.container.database.db.selectFrom('mail_queue').select('subject').where('recipient', '=', email).execute()).map(
    (row) => row.subject,
  );

/** The token of the reset link in the mail that arrived over SMTP. */
async function resetLinkToken(email: string, subject = RESET_SUBJECT): Promise<string> {
  const mail = await smtp.waitForMail(email, subject);
  const match = /http:\/\/localhost:3000\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? '');
  expect(mail.html).toContain(`href="${match?.[0]}"`);
  return match?.[1] as string;
}

async function settingsWith(token: string, change: (settings: any) => void) {
  const settings = (await server.request('GET', '/api/user/settings', { token })).body.settings;
  change(settings);
  expect((await server.request('PUT', '/api/user/settings', { token, body: settings })).status).toBe(200);
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

describe('forgot password', () => {
  it('mails a reset link to an account, and answers an unknown e-mail the same, no sooner, without any mail', async () => {
    const user = await createUser(server);
    const unknown = `nobody-${Date.now()}@example.com`;
    const known = await timed(() => forgot(`  ${user.email.toUpperCase()} `));
    const missing = await timed(() => forgot(unknown));
    expect(known.result.status).toBe(202);
    expect(missing.result.status).toBe(202);
    expect(missing.result.body).toEqual(known.result.body);
    expect(known.result.body).toEqual({
      message: 'If an account exists for this e-mail, we sent it a link to reset the password. Check your inbox.',
    });
    // Both wait for the same floor, so the time does not tell them apart.
    expect(known.ms).toBeGreaterThanOrEqual(245);
    expect(missing.ms).toBeGreaterThanOrEqual(245);

    const token = await resetLinkToken(user.email);
    expect((await smtp.waitForMail(user.email, RESET_SUBJECT)).text).toMatch(/^Hello Ada,/);
    expect(await queuedTo(unknown)).toEqual([]);
    expect(smtp.messages.filter((message) => !Array.isArray(message.to) && message.to?.text === unknown)).toEqual([]);
    const stored = await server.container.database.db
      .selectFrom('account_tokens')
      .selectAll()
      .where('purpose', '=', 'reset_password')
      .where('user_id', '=', user.user.id)
      .execute();
    expect(stored).toEqual([expect.objectContaining({ token_hash: createHash('sha256').update(token).digest('hex') })]);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it("writes the reset mail in the account's language", async () => {
    const user = await createUser(server);
    await settingsWith(user.token, (settings) => {
      settings.appearance.language = 'fr';
    });
    expect((await forgot(user.email)).status).toBe(202);
    expect((await smtp.waitForMail(user.email, 'Réinitialisez votre mot de passe CloudVault')).text).toContain(
      'Choisir un nouveau mot de passe',
    );
  });

  it('refuses a malformed e-mail with 400', async () => {
    expect((await forgot('not-an-address')).status).toBe(400);
    expect((await forgot(42)).status).toBe(400);
    expect((await server.request('POST', '/api/auth/forgot-password', { body: {} })).status).toBe(400);
    expect((await forgot('x'.repeat(255))).status).toBe(400);
  });
});

describe('reset password', () => {
  it('sets the new password once, signs every session out, keeps two-factor on and sends the security alert', async () => {
    const user = await createUser(server);
    const other = (await login({ email: user.email, password: user.password })).body.token as string;
    const { secret } = (await server.request('POST', '/api/auth/2fa/setup', { token: user.token })).body;
    expect(
      (await server.request('POST', '/api/auth/2fa/enable', { token: user.token, body: { code: totpCode(secret, server.clock.now()) } }))
        .status,
    ).toBe(200);

    expect((await forgot(user.email)).status).toBe(202);
    const token = await resetLinkToken(user.email);
    const short = await reset(token, '12345');
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ error: 'Password must be at least 6 characters long', code: 'WEAK_PASSWORD' });
    // The refused attempt did not use the link up.
    const done = await reset(token, 'brand new secret');
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: 'Your password was changed. Sign in with your new password.' });

    for (const session of [user.token, other])
      expect((await server.request('GET', '/api/auth/profile', { token: session })).status).toBe(401);
    expect((await login({ email: user.email, password: user.password, totpCode: totpCode(secret, server.clock.now()) })).status).toBe(401);
    const asked = await login({ email: user.email, password: 'brand new secret' });
    expect(asked.status).toBe(401);
    expect(asked.body.twoFactorRequired).toBe(true);
    // A code is accepted once: the one that enabled two-factor is spent, so sign in with the next.
    server.clock.advance(30_000);
    const signedIn = await login({ email: user.email, password: 'brand new secret', totpCode: totpCode(secret, server.clock.now()) });
    expect(signedIn.status).toBe(200);
    // The link reached the address: it is verified now.
    expect(signedIn.body.user).toMatchObject({ twoFactorEnabled: true, emailVerified: true });

    expect((await smtp.waitForMail(user.email, ALERT_SUBJECT)).text).toContain('The password of your account was changed');
    const again = await reset(token, 'another secret');
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('RESET_LINK_INVALID');
    // A new request drops the spent token: only usable ones are kept.
    expect((await forgot(user.email)).status).toBe(202);
    const kept = await server.container.database.db
      .selectFrom('account_tokens')
      .select('used_at')
      .where('user_id', '=', user.user.id)
      .where('purpose', '=', 'reset_password')
      .execute();
    expect(kept).toEqual([{ used_at: null }]);
    // The link's token never reaches the log, even when the page itself is requested.
    await fetch(`${server.url}/reset-password?token=${token}`);
    expect(server.logs()).toContain('/reset-password?token=[redacted]');
    expect(server.logs()).not.toContain(token);
    const activity = (await server.request('GET', '/api/user/overview', { token: signedIn.body.token })).body.activity;
    expect(activity.map((entry: { type: string }) => entry.type)).toContain('password_change');
  });

  it('sends no security alert when security alerts are off', async () => {
    const user = await createUser(server);
    await settingsWith(user.token, (settings) => {
      settings.notifications.securityAlerts = false;
    });
    await forgot(user.email);
    expect((await reset(await mailedToken(server, user.email, '/reset-password'), 'quiet new secret')).status).toBe(200);
    await server.container.mail.drain();
    expect(await queuedTo(user.email)).not.toContain(ALERT_SUBJECT);
    expect((await login({ email: user.email, password: 'quiet new secret' })).status).toBe(200);
  });

  it('refuses an unknown, expired (after 1 hour) or verification token, and leaves the password as it was', async () => {
    const user = await createUser(server);
    for (const token of ['A'.repeat(43), '', await mailedToken(server, user.email, '/verify-email')]) {
      const response = await reset(token, 'whatever secret');
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('RESET_LINK_INVALID');
    }
    expect((await server.request('POST', '/api/auth/reset-password', { body: { token: 'x' } })).status).toBe(400);
    expect((await reset(42, 'whatever secret')).status).toBe(400);

    await forgot(user.email);
    const token = await mailedToken(server, user.email, '/reset-password');
    server.clock.advance(HOUR);
    expect((await reset(token, 'too late secret')).status).toBe(400);
    expect((await login({ email: user.email, password: user.password })).status).toBe(200);
    expect((await login({ email: user.email, password: 'too late secret' })).status).toBe(401);
  });
});

describe('limits', () => {
  it('allows 5 requests per e-mail and 20 per client address an hour, then answers 429 with Retry-After', async () => {
    // A fresh window: the requests above counted against this address too.
    server.clock.advance(HOUR);
    const user = await createUser(server);
    const perEmail = await Promise.all(Array.from({ length: 6 }, () => forgot(user.email)));
    expect(perEmail.map((response) => response.status).sort()).toEqual([202, 202, 202, 202, 202, 429]);
    const limited = perEmail.find((response) => response.status === 429);
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await queuedTo(user.email)).filter((subject) => subject === RESET_SUBJECT)).toHaveLength(5);

    // 5 from this address so far: 15 more for other addresses, then the address is stopped.
    const others = await Promise.all(Array.from({ length: 15 }, (_, index) => forgot(`other-${index}@example.com`)));
    expect(others.every((response) => response.status === 202)).toBe(true);
    const blocked = await forgot('fresh@example.com');
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBeTruthy();

    server.clock.advance(HOUR);
    expect((await forgot('fresh@example.com')).status).toBe(202);
  });
});
