import type { RegisterBody } from '@cloudvault/contract/accounts';
import { totpCode } from '../../src/lib/totp.ts';
import { createUser } from '@cloudvault/test-support/accounts';
import type { TestServer } from './test-server.ts';

/**
 * The token of the newest link to `path` mailed to `email`, read from the server's mail
 * queue (every message is stored there before it is sent, over SMTP or to the outbox).
 */
export async function mailedToken(server: TestServer, email: string, path: '/verify-email' | '/reset-password'): Promise<string> {
  const mails = await server.container.database.db
    .selectFrom('mail_queue')
    .select(['text_body', 'created_at'])
    .where('recipient', '=', email)
    .orderBy('created_at', 'desc')
    .execute();
  const pattern = new RegExp(`${server.container.config.publicUrl}${path}\\?token=([A-Za-z0-9_-]+)`);
  for (const mail of mails) {
    const match = pattern.exec(mail.text_body);
    if (match) return match[1] as string;
  }
  throw new Error(`no ${path} link was mailed to ${email}`);
}

/** Verifies the user's address through the link of their verification mail, as they would. */
export async function verifyEmail(server: TestServer, email: string): Promise<void> {
  const response = await server.request('POST', '/api/auth/verify-email', {
    body: { token: await mailedToken(server, email, '/verify-email') },
  });
  if (response.status !== 200) throw new Error(`verify-email failed: ${response.status} ${response.text}`);
}

/** A registered user whose address is verified (private shares need one). */
export async function createVerifiedUser(server: TestServer, overrides: Partial<RegisterBody> = {}) {
  const created = await createUser(server, overrides);
  await verifyEmail(server, created.email);
  return { ...created, user: { ...created.user, emailVerified: true } };
}

/** Turns two-factor sign-in on for the user, as the Profile page does; returns the TOTP secret. */
export async function enableTwoFactor(server: TestServer, token: string): Promise<string> {
  const setup = await server.request('POST', '/api/auth/2fa/setup', { token });
  if (setup.status !== 200) throw new Error(`2fa setup failed: ${setup.status} ${setup.text}`);
  const secret = setup.body.secret as string;
  const enabled = await server.request('POST', '/api/auth/2fa/enable', { token, body: { code: totpCode(secret, server.clock.now()) } });
  if (enabled.status !== 200) throw new Error(`2fa enable failed: ${enabled.status} ${enabled.text}`);
  return secret;
}
