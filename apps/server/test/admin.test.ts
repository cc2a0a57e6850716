import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFolder, uploadFile } from '@cloudvault/test-support/drive';
import { BACKGROUND_JOBS } from '../src/background-jobs.ts';
import { createVerifiedUser, mailedToken } from './helpers/factories.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const DAY = 24 * 60 * 60 * 1000;
const OPERATOR = 'operator@example.com';
const root = fileURLToPath(new URL('../../..', import.meta.url));

/** A server whose ADMIN_EMAILS names OPERATOR, and that operator signed in with a verified address. */
async function startWithOperator() {
  const server = await startTestServer({ env: { ADMIN_EMAILS: `someone-else@example.com, ${OPERATOR.toUpperCase()}` } });
  const operator = await createVerifiedUser(server, { email: OPERATOR, firstName: 'Olga', lastName: 'Operator' });
  return { server, operator };
}

/** Sessions last a week: after the clock jumps further, a user signs in again. */
async function signInTo(server: TestServer, user: { email: string; password: string }): Promise<string> {
  const response = await server.request('POST', '/api/auth/login', { body: { email: user.email, password: user.password } });
  expect(response.status).toBe(200);
  return response.body.token;
}

async function auditOf(server: TestServer, token: string, targetId: string) {
  const response = await server.request('GET', `/api/admin/audit?targetId=${targetId}`, { token });
  expect(response.status).toBe(200);
  return response.body.entries as Array<{ action: string; adminId: string | null; targetId: string; details: Record<string, unknown> }>;
}

describe('operator console', () => {
  let server: TestServer;
  let operator: Awaited<ReturnType<typeof createVerifiedUser>>;
  beforeAll(async () => {
    ({ server, operator } = await startWithOperator());
  });
  afterAll(() => server.close());

  const admin = (method: string, path: string, body?: unknown) =>
    server.request(method, `/api/admin${path}`, { token: operator.token, body });
  const signIn = (user: { email: string; password: string }) => signInTo(server, user);

  it('answers 401 signed out and 403 to a signed-in user on every route; the operator has the admin role', async () => {
    const user = await createVerifiedUser(server);
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/users'],
      ['GET', `/api/admin/users/${user.user.id}`],
      ['PATCH', `/api/admin/users/${user.user.id}`, { suspended: true, reason: 'test' }],
      ['POST', `/api/admin/users/${user.user.id}/resend-verification`, {}],
      ['POST', `/api/admin/users/${user.user.id}/send-password-reset`, {}],
      ['DELETE', `/api/admin/users/${user.user.id}`, { confirmEmail: user.email, reason: 'test', password: user.password }],
      ['GET', '/api/admin/stats'],
      ['GET', '/api/admin/audit'],
    ];
    for (const [method, path, body] of routes) {
      expect((await server.request(method, path, { body })).status, `${method} ${path} signed out`).toBe(401);
      const refused = await server.request(method, path, { token: user.token, body });
      expect(refused.status, `${method} ${path} as a user`).toBe(403);
      expect(refused.body.error).toBeTruthy();
    }
    expect((await server.request('GET', '/api/auth/profile', { token: operator.token })).body.user.role).toBe('admin');
    expect((await server.request('GET', '/api/auth/profile', { token: user.token })).body.user.role).toBe('user');
    // The account with the listed address is not an operator until the address is verified.
    const other = await startTestServer({ env: { ADMIN_EMAILS: OPERATOR } });
    try {
      const unverified = await createUser(other, { email: OPERATOR });
      expect((await other.request('GET', '/api/admin/users', { token: unverified.token })).status).toBe(403);
    } finally {
      await other.close();
    }
  });

  it('searches by part of the address or the name, filters by plan and status, and pages every sort with a stable cursor', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const people = [];
    for (let index = 0; index < 5; index++) {
      people.push(await createUser(server, { email: `${tag}-${index}@example.com`, firstName: `Kit${tag}`, lastName: `Marlowe${index}` }));
    }
    await uploadFile(server, people[2]!.token, 'twelve bytes', { name: 'a.txt' });

    const byAddress = await admin('GET', `/users?search=${tag}-3`);
    expect(byAddress.status).toBe(200);
    expect(byAddress.body.users.map((u: { email: string }) => u.email)).toEqual([`${tag}-3@example.com`]);
    expect(byAddress.body.users[0]).toMatchObject({
      status: 'active',
      filesCount: 0,
      complimentary: false,
      plan: 'FREE',
      suspendedAt: null,
    });
    expect(byAddress.body.users[0].lastSignInAt).toBe(server.clock.now().toISOString());
    const byFullName = await admin('GET', `/users?search=${encodeURIComponent(`kit${tag} marlowe4`)}`);
    expect(byFullName.body.users.map((u: { email: string }) => u.email)).toEqual([`${tag}-4@example.com`]);
    // LIKE's wildcards are searched for, not obeyed.
    expect((await admin('GET', `/users?search=${tag}_1`)).body.users).toEqual([]);
    expect((await admin('GET', `/users?search=%25${tag}`)).body.users).toEqual([]);

    // Equal storage (all 0 but one) and equal sign-in times: pages of two still list each once.
    for (const sort of ['created', 'storage', 'lastSignIn']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `/users?search=${tag}&sort=${sort}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
        const page = await admin('GET', query);
        expect(page.status).toBe(200);
        seen.push(...page.body.users.map((u: { email: string }) => u.email));
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(seen.sort()).toEqual(people.map((p) => p.email).sort());
    }
    const largestFirst = await admin('GET', `/users?search=${tag}&sort=storage`);
    expect(largestFirst.body.users[0]).toMatchObject({ email: people[2]!.email, storageUsed: 12, filesCount: 1 });

    expect((await admin('GET', `/users?search=${tag}&plan=PRO`)).body.users).toEqual([]);
    expect((await admin('GET', `/users?search=${tag}&plan=FREE`)).body.users).toHaveLength(5);
    expect((await admin('GET', `/users?search=${tag}&status=suspended`)).body.users).toEqual([]);
    expect((await admin('GET', `/users?search=${tag}&cursor=not-a-cursor`)).status).toBe(400);
    const storageCursor = (await admin('GET', `/users?search=${tag}&sort=storage&limit=1`)).body.nextCursor;
    expect((await admin('GET', `/users?search=${tag}&sort=created&cursor=${storageCursor}`)).status).toBe(400);
    expect((await admin('GET', '/users?limit=500')).status).toBe(400);
    expect((await admin('GET', '/users?sort=name')).status).toBe(400);
  });

  it('suspends: sign-in 403 at either step, tokens 401, links and private shares 404; unsuspending restores them all', async () => {
    const owner = await createVerifiedUser(server);
    const friend = await createVerifiedUser(server);
    const file = (await uploadFile(server, owner.token, 'shared bytes', { name: 'shared.txt' })).body.file;
    const link = (await server.request('POST', `/api/files/${file.id}/share`, { token: owner.token, body: {} })).body.shareUrl.split(
      '/s/',
    )[1];
    const folder = await createFolder(server, owner.token, 'For a friend');
    expect(
      (
        await server.request('POST', `/api/user/folders/${folder.id}/share`, {
          token: owner.token,
          body: { shareType: 'private', email: friend.email },
        })
      ).status,
    ).toBe(200);
    const sharedWithFriend = async () => (await server.request('GET', '/api/shared-with-me', { token: friend.token })).body.folders;
    const friendOpens = async () => (await server.request('GET', `/api/files?folderId=${folder.id}`, { token: friend.token })).status;
    expect(await friendOpens()).toBe(200);
    expect(JSON.stringify(await sharedWithFriend())).toContain(folder.id);

    expect((await admin('PATCH', `/users/${owner.user.id}`, { suspended: true })).status).toBe(400);
    expect((await admin('PATCH', `/users/${owner.user.id}`, { suspended: true, reason: '   ' })).body.code).toBe('REASON_REQUIRED');
    expect((await admin('PATCH', '/users/nobody', { suspended: true, reason: 'x' })).status).toBe(404);
    expect((await admin('PATCH', `/users/${owner.user.id}`, { suspended: true, reason: 'x', extra: 1 })).status).toBe(400);

    const suspended = await admin('PATCH', `/users/${owner.user.id}`, { suspended: true, reason: 'Abuse report #42' });
    expect(suspended.status).toBe(200);
    expect(suspended.body.user).toMatchObject({ id: owner.user.id, status: 'suspended', suspendedAt: server.clock.now().toISOString() });

    const signIn = await server.request('POST', '/api/auth/login', { body: { email: owner.email, password: owner.password } });
    expect(signIn.status).toBe(403);
    expect(signIn.body).toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    expect(signIn.body.error).toMatch(/suspended/);
    expect((await server.request('POST', '/api/auth/login', { body: { email: owner.email, password: 'wrong password' } })).status).toBe(
      401,
    );
    expect((await server.request('GET', '/api/auth/profile', { token: owner.token })).status).toBe(401);
    expect((await server.request('GET', '/api/files', { token: owner.token })).status).toBe(401);
    expect((await server.request('GET', `/api/public/shares/${link}`)).status).toBe(404);
    expect(JSON.stringify(await sharedWithFriend())).not.toContain(folder.id);
    expect(await friendOpens()).toBe(404);
    expect((await admin('GET', `/users?status=suspended&search=${encodeURIComponent(owner.email)}`)).body.users).toHaveLength(1);

    server.clock.advance(1000);
    const restored = await admin('PATCH', `/users/${owner.user.id}`, { suspended: false, reason: 'Resolved' });
    expect(restored.body.user).toMatchObject({ status: 'active', suspendedAt: null });
    expect((await server.request('POST', '/api/auth/login', { body: { email: owner.email, password: owner.password } })).status).toBe(200);
    expect((await server.request('GET', '/api/auth/profile', { token: owner.token })).status).toBe(200);
    expect((await server.request('GET', `/api/public/shares/${link}`)).status).toBe(200);
    expect(JSON.stringify(await sharedWithFriend())).toContain(folder.id);
    expect(await friendOpens()).toBe(200);

    const entries = await auditOf(server, operator.token, owner.user.id);
    expect(entries.map((entry) => entry.action)).toEqual(['unsuspend', 'suspend']);
    expect(entries[1]).toMatchObject({
      adminId: operator.user.id,
      details: { reason: 'Abuse report #42', targetEmail: owner.email, adminEmail: OPERATOR },
    });
  });

  it("stops a suspended account's WebDAV access, by app password and by account password, until unsuspended", async () => {
    const user = await createVerifiedUser(server);
    const created = await server.request('POST', '/api/user/app-passwords', {
      token: user.token,
      body: { name: 'Laptop', password: user.password },
    });
    const propfind = (password: string) =>
      fetch(`${server.url}/dav/`, {
        method: 'PROPFIND',
        headers: { depth: '0', authorization: `Basic ${Buffer.from(`${user.email}:${password}`).toString('base64')}` },
      });
    expect((await propfind(created.body.password)).status).toBe(207);
    expect((await propfind(user.password)).status).toBe(207);

    await admin('PATCH', `/users/${user.user.id}`, { suspended: true, reason: 'Abuse report #43' });
    for (const password of [created.body.password, user.password]) {
      const refused = await propfind(password);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    }
    // A wrong password learns nothing about the suspension.
    expect((await propfind('not the password')).status).toBe(401);

    await admin('PATCH', `/users/${user.user.id}`, { suspended: false, reason: 'Resolved' });
    expect((await propfind(created.body.password)).status).toBe(207);
  });

  it('answers 403 to the two-factor step of a suspended account', async () => {
    const user = await createVerifiedUser(server);
    await server.container.database.db
      .updateTable('users')
      .set({ totp_secret: 'JBSWY3DPEHPK3PXP', two_factor_enabled: 1 })
      .where('id', '=', user.user.id)
      .execute();
    await admin('PATCH', `/users/${user.user.id}`, { suspended: true, reason: 'Chargeback' });
    const step = await server.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password, totpCode: '123456' },
    });
    expect(step.status).toBe(403);
    expect(step.body.twoFactorRequired).toBeUndefined();
  });

  it('grants a complimentary plan with an end date, shown to the user, never billed, ended by the job at its date', async () => {
    const user = await createVerifiedUser(server);
    const endsAt = new Date(server.clock.now().getTime() + 10 * DAY).toISOString();
    expect((await admin('PATCH', `/users/${user.user.id}`, { plan: 'PRO', reason: 'Beta tester' })).body.code).toBe('PLAN_END_REQUIRED');
    expect((await admin('PATCH', `/users/${user.user.id}`, { plan: 'PRO', planEndsAt: endsAt })).body.code).toBe('REASON_REQUIRED');
    const past = new Date(server.clock.now().getTime() - DAY).toISOString();
    expect((await admin('PATCH', `/users/${user.user.id}`, { plan: 'PRO', planEndsAt: past, reason: 'x' })).body.code).toBe(
      'PLAN_END_IN_PAST',
    );
    expect((await admin('PATCH', `/users/${user.user.id}`, { plan: 'FREE', reason: 'x' })).status).toBe(409);

    const granted = await admin('PATCH', `/users/${user.user.id}`, { plan: 'PRO', planEndsAt: endsAt, reason: 'Beta tester' });
    expect(granted.status).toBe(200);
    expect(granted.body.user).toMatchObject({ plan: 'PRO', complimentary: true, planEndsAt: endsAt });
    const current = (await server.request('GET', '/api/subscriptions/current', { token: user.token })).body;
    expect(current).toMatchObject({
      plan: 'PRO',
      subscription: { planId: 'PRO', status: 'active', complimentary: true, currentPeriodEnd: endsAt, nextBillingDate: null },
    });
    expect(current.billingHistory).toEqual([]);
    expect((await server.request('POST', '/api/subscriptions/cancel', { token: user.token })).body.code).toBe('COMPLIMENTARY_PLAN');
    expect(
      (await server.request('POST', '/api/subscriptions/create-checkout-session', { token: user.token, body: { planType: 'PREMIUM' } }))
        .status,
    ).toBe(409);

    const detail = (await admin('GET', `/users/${user.user.id}`)).body;
    expect(detail.complimentaryPlan).toMatchObject({ planId: 'PRO', endsAt, reason: 'Beta tester', grantedBy: operator.user.id });

    // Renewals bill nothing for it; the plan lasts until its date, then the job ends it, once.
    server.clock.advance(9 * DAY);
    await server.container.jobs.runNow(BACKGROUND_JOBS.renewals);
    expect(await server.container.jobs.runNow(BACKGROUND_JOBS.complimentaryPlanEnds)).toBe(0);
    server.clock.advance(2 * DAY);
    const [first, second] = await Promise.all([
      server.container.jobs.runNow(BACKGROUND_JOBS.complimentaryPlanEnds),
      server.container.jobs.runNow(BACKGROUND_JOBS.complimentaryPlanEnds),
    ]);
    expect(Number(first) + Number(second)).toBe(1);
    const token = await signIn(user);
    operator.token = await signIn(operator);
    const after = (await server.request('GET', '/api/subscriptions/current', { token })).body;
    expect(after).toMatchObject({ plan: 'FREE', subscription: { status: 'canceled', complimentary: true, currentPeriodEnd: endsAt } });
    expect(after.billingHistory).toEqual([]);
    expect(after.history[0]).toMatchObject({ type: 'downgrade', planName: 'Free' });

    const entries = await auditOf(server, operator.token, user.user.id);
    expect(entries[0]).toMatchObject({ action: 'grant_plan', details: { plan: 'PRO', planEndsAt: endsAt, reason: 'Beta tester' } });
  });

  it('ends a complimentary plan early, and never replaces a paid subscription', async () => {
    const user = await createVerifiedUser(server);
    const endsAt = new Date(server.clock.now().getTime() + 30 * DAY).toISOString();
    await admin('PATCH', `/users/${user.user.id}`, { plan: 'PREMIUM', planEndsAt: endsAt, reason: 'Partner' });
    server.clock.advance(1000);
    const ended = await admin('PATCH', `/users/${user.user.id}`, { plan: 'FREE', reason: 'Partnership over' });
    expect(ended.body.user).toMatchObject({ plan: 'FREE', complimentary: false, planEndsAt: null });
    expect((await auditOf(server, operator.token, user.user.id))[0]).toMatchObject({
      action: 'end_plan',
      details: { reason: 'Partnership over' },
    });

    const payer = await createVerifiedUser(server);
    await subscribe(server, payer.token, 'PRO');
    const refused = await admin('PATCH', `/users/${payer.user.id}`, { plan: 'PREMIUM', planEndsAt: endsAt, reason: 'x' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('PAID_SUBSCRIPTION');
    const detail = (await admin('GET', `/users/${payer.user.id}`)).body;
    expect(detail.subscription).toMatchObject({ planId: 'PRO', complimentary: false });
    expect(detail.billingHistory).toHaveLength(1);
    expect(detail.user).toMatchObject({ plan: 'PRO', complimentary: false });
  });

  it('shows usage counts and devices without file names, resends verification and sends a password reset', async () => {
    const user = await createUser(server);
    await uploadFile(server, user.token, 'x'.repeat(300), { name: 'secret-plans.txt' });
    await uploadFile(server, user.token, 'y'.repeat(100), { name: 'diary.txt' });
    await createFolder(server, user.token, 'Private folder');
    const detail = await admin('GET', `/users/${user.user.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.usage).toMatchObject({
      filesCount: 2,
      foldersCount: 1,
      trashedCount: 0,
      versionsCount: 0,
      largestFileSizes: [300, 100],
    });
    expect(detail.body.devices).toHaveLength(1);
    expect(detail.text).not.toContain('secret-plans');
    expect(detail.text).not.toContain('Private folder');
    expect((await admin('GET', '/users/unknown-user')).status).toBe(404);

    const resent = await admin('POST', `/users/${user.user.id}/resend-verification`, { reason: 'Lost the first mail' });
    server.clock.advance(1000);
    expect(resent.status).toBe(200);
    await server.request('POST', '/api/auth/verify-email', { body: { token: await mailedToken(server, user.email, '/verify-email') } });
    expect((await admin('POST', `/users/${user.user.id}/resend-verification`, {})).body.code).toBe('ALREADY_VERIFIED');

    // No body at all is as good as an empty one.
    expect((await admin('POST', `/users/${user.user.id}/send-password-reset`)).status).toBe(200);
    const reset = await server.request('POST', '/api/auth/reset-password', {
      body: { token: await mailedToken(server, user.email, '/reset-password'), password: 'a new passphrase' },
    });
    expect(reset.status).toBe(200);

    const entries = await auditOf(server, operator.token, user.user.id);
    expect(entries.map((entry) => entry.action)).toEqual(['send_password_reset', 'resend_verification']);
    expect(entries[1]!.details.reason).toBe('Lost the first mail');
  });

  it("deletes an account once its address is typed back and the operator's password given; the audit entry outlives it", async () => {
    const user = await createUser(server);
    await uploadFile(server, user.token, 'bytes', { name: 'a.txt' });
    const password = operator.password;
    expect(
      (await admin('DELETE', `/users/${user.user.id}`, { confirmEmail: 'wrong@example.com', reason: 'Asked by mail', password })).body.code,
    ).toBe('CONFIRMATION_MISMATCH');
    expect((await admin('DELETE', `/users/${user.user.id}`, { confirmEmail: user.email, password })).status).toBe(400);
    const withoutPassword = await admin('DELETE', `/users/${user.user.id}`, { confirmEmail: user.email, reason: 'Asked by mail' });
    expect(withoutPassword.status).toBe(400);
    expect(withoutPassword.body.error).toBeTruthy();
    const wrongPassword = await admin('DELETE', `/users/${user.user.id}`, {
      confirmEmail: user.email,
      reason: 'Asked by mail',
      password: 'not my password',
    });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.code).toBe('INCORRECT_PASSWORD');
    // The user's own password is not the operator's.
    const owner = await createUser(server, { password: 'the owner passphrase' });
    expect(
      (await admin('DELETE', `/users/${owner.user.id}`, { confirmEmail: owner.email, reason: 'Asked by mail', password: owner.password }))
        .body.code,
    ).toBe('INCORRECT_PASSWORD');
    expect((await server.request('GET', '/api/auth/profile', { token: user.token })).status).toBe(200);

    expect(
      (await admin('DELETE', `/users/${user.user.id}`, { confirmEmail: user.email.toUpperCase(), reason: 'Asked by mail', password }))
        .status,
    ).toBe(204);
    expect((await server.request('GET', '/api/auth/profile', { token: user.token })).status).toBe(401);
    expect((await admin('GET', `/users/${user.user.id}`)).status).toBe(404);
    const entries = await auditOf(server, operator.token, user.user.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'delete_account', details: { targetEmail: user.email, reason: 'Asked by mail' } });
  });

  it("counts a wrong password of a deletion against the operator's sign-in failure limit", async () => {
    const user = await createUser(server);
    // From an address of its own, so the operator's other requests keep their limits.
    const from = '127.0.0.77';
    const remove = (password: string) =>
      server.request('DELETE', `/api/admin/users/${user.user.id}`, {
        token: operator.token,
        from,
        body: { confirmEmail: user.email, reason: 'Guessing', password },
      });
    const answers: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) answers.push((await remove(`guess ${attempt}`)).status);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(answers.slice(10)).toEqual([429, 429]);
    const locked = await remove(operator.password);
    expect(locked.status).toBe(429);
    expect(locked.body.error).toBeTruthy();
    // The same window the sign-in form counts in: a sign-in from there is refused too.
    expect((await server.request('POST', '/api/auth/login', { from, body: { email: OPERATOR, password: operator.password } })).status).toBe(
      429,
    );
    expect((await server.request('GET', '/api/auth/profile', { token: user.token })).status).toBe(200);
  });

  it("refuses every action on an operator's account, its own or another's, with 403, and still shows it", async () => {
    const listed = await createVerifiedUser(server, { email: 'someone-else@example.com' });
    const byRole = await createVerifiedUser(server);
    await server.container.database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', byRole.user.id).execute();
    const endsAt = new Date(server.clock.now().getTime() + 10 * DAY).toISOString();
    for (const target of [operator, listed, byRole]) {
      const actions: Array<[string, string, unknown?]> = [
        ['PATCH', `/users/${target.user.id}`, { suspended: true, reason: 'x' }],
        ['PATCH', `/users/${target.user.id}`, { plan: 'PREMIUM', planEndsAt: endsAt, reason: 'x' }],
        ['PATCH', `/users/${target.user.id}`, { plan: 'FREE', reason: 'x' }],
        ['POST', `/users/${target.user.id}/resend-verification`, {}],
        ['POST', `/users/${target.user.id}/send-password-reset`, {}],
        ['DELETE', `/users/${target.user.id}`, { confirmEmail: target.email, reason: 'x', password: operator.password }],
      ];
      for (const [method, path, body] of actions) {
        const refused = await admin(method, path, body);
        expect(refused.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(403);
        expect(refused.body).toMatchObject({ code: 'OPERATOR_ACCOUNT', error: expect.stringMatching(/users only/) });
      }
      const shown = await admin('GET', `/users/${target.user.id}`);
      expect(shown.status).toBe(200);
      expect(shown.body.user).toMatchObject({ role: 'admin', status: 'active', plan: 'FREE' });
      expect(await auditOf(server, operator.token, target.user.id)).toEqual([]);
      expect((await server.request('GET', '/api/auth/profile', { token: target.token })).status).toBe(200);
    }
  });

  it('pages the audit log newest first; no route edits or deletes it', async () => {
    const first = await admin('GET', '/audit?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.entries).toHaveLength(2);
    const second = await admin('GET', `/audit?limit=2&cursor=${first.body.nextCursor}`);
    const ids = [...first.body.entries, ...second.body.entries].map((entry: { id: string }) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    const times = [...first.body.entries, ...second.body.entries].map((entry: { createdAt: string }) => entry.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const id = first.body.entries[0].id;
    for (const method of ['PATCH', 'PUT', 'DELETE']) expect((await admin(method, `/audit/${id}`, {})).status).toBe(404);
  });
});

/**
 * Makes the database refuse every new audit entry until the returned function is called: an
 * action whose entry cannot be written must leave nothing changed.
 */
async function refuseAuditEntries(server: TestServer): Promise<() => Promise<void>> {
  const { db, dialect } = server.container.database;
  if (dialect === 'postgres') {
    await sql`CREATE FUNCTION refuse_audit_entries() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit entries refused by the test'; END $$`.execute(
      db,
    );
    await sql`CREATE TRIGGER refuse_audit_entries BEFORE INSERT ON admin_audit FOR EACH ROW EXECUTE FUNCTION refuse_audit_entries()`.execute(
      db,
    );
    return async () => {
      await sql`DROP TRIGGER refuse_audit_entries ON admin_audit`.execute(db);
      await sql`DROP FUNCTION refuse_audit_entries()`.execute(db);
    };
  }
  await sql`CREATE TRIGGER refuse_audit_entries BEFORE INSERT ON admin_audit BEGIN SELECT RAISE(ABORT, 'audit entries refused by the test'); END`.execute(
    db,
  );
  return async () => {
    await sql`DROP TRIGGER refuse_audit_entries`.execute(db);
  };
}

describe('an action and its audit entry', () => {
  let server: TestServer;
  let operator: Awaited<ReturnType<typeof createVerifiedUser>>;
  beforeAll(async () => {
    ({ server, operator } = await startWithOperator());
  });
  afterAll(() => server.close());

  const admin = (method: string, path: string, body?: unknown) =>
    server.request(method, `/api/admin${path}`, { token: operator.token, body });

  it('commit together: when the entry cannot be written, suspension, plans, deletion and mails leave nothing changed', async () => {
    const user = await createUser(server);
    await uploadFile(server, user.token, 'kept bytes', { name: 'kept.txt' });
    const gifted = await createUser(server);
    const endsAt = new Date(server.clock.now().getTime() + 10 * DAY).toISOString();
    expect((await admin('PATCH', `/users/${gifted.user.id}`, { plan: 'PRO', planEndsAt: endsAt, reason: 'Gift' })).status).toBe(200);
    const mailsTo = async (email: string) =>
      Number(
        (
          await server.container.database.db
            .selectFrom('mail_queue')
            .select((eb) => eb.fn.countAll().as('count'))
            .where('recipient', '=', email)
            .executeTakeFirstOrThrow()
        ).count,
      );
    const mailsBefore = await mailsTo(user.email);

    const allowAuditEntries = await refuseAuditEntries(server);
    try {
      const attempts: Array<[string, string, unknown?]> = [
        ['PATCH', `/users/${user.user.id}`, { suspended: true, reason: 'Abuse' }],
        ['PATCH', `/users/${user.user.id}`, { plan: 'PREMIUM', planEndsAt: endsAt, reason: 'Gift' }],
        ['PATCH', `/users/${gifted.user.id}`, { plan: 'FREE', reason: 'Over' }],
        ['PATCH', `/users/${gifted.user.id}`, { plan: 'PREMIUM', planEndsAt: endsAt, reason: 'Upgrade' }],
        ['POST', `/users/${user.user.id}/resend-verification`, {}],
        ['POST', `/users/${user.user.id}/send-password-reset`, {}],
        ['DELETE', `/users/${user.user.id}`, { confirmEmail: user.email, reason: 'Asked', password: operator.password }],
      ];
      for (const [method, path, body] of attempts) {
        const failed = await admin(method, path, body);
        expect(failed.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(500);
        expect(failed.body.error).toBeTruthy();
      }
    } finally {
      await allowAuditEntries();
    }

    expect((await server.request('GET', '/api/auth/profile', { token: user.token })).status).toBe(200);
    expect(
      (await server.request('GET', '/api/files', { token: user.token })).body.files.map(
        (file: { originalName: string }) => file.originalName,
      ),
    ).toEqual(['kept.txt']);
    const current = (await server.request('GET', '/api/subscriptions/current', { token: user.token })).body;
    expect(current).toMatchObject({ plan: 'FREE', subscription: null });
    expect(await mailsTo(user.email)).toBe(mailsBefore);
    const gift = (await admin('GET', `/users/${gifted.user.id}`)).body;
    expect(gift.user).toMatchObject({ plan: 'PRO', complimentary: true, planEndsAt: endsAt });
    expect(gift.complimentaryPlan).toMatchObject({ planId: 'PRO', reason: 'Gift' });
    expect(gift.history).toHaveLength(1);
    expect(await auditOf(server, operator.token, user.user.id)).toEqual([]);
    expect((await auditOf(server, operator.token, gifted.user.id)).map((entry) => entry.action)).toEqual(['grant_plan']);

    // With entries allowed again, the same actions land with their entries.
    expect((await admin('PATCH', `/users/${user.user.id}`, { suspended: true, reason: 'Abuse' })).status).toBe(200);
    server.clock.advance(1000);
    expect(
      (await admin('DELETE', `/users/${user.user.id}`, { confirmEmail: user.email, reason: 'Asked', password: operator.password })).status,
    ).toBe(204);
    expect((await auditOf(server, operator.token, user.user.id)).map((entry) => entry.action)).toEqual(['delete_account', 'suspend']);
  });
});

describe('the overview', () => {
  let server: TestServer;
  let operator: Awaited<ReturnType<typeof createVerifiedUser>>;
  beforeAll(async () => {
    ({ server, operator } = await startWithOperator());
  });
  afterAll(() => server.close());

  it('counts users, paid plans, MRR after two payments and a refund, storage and files, with health', async () => {
    const payers = [await createUser(server), await createUser(server), await createUser(server)];
    await subscribe(server, payers[0]!.token, 'PRO');
    await subscribe(server, payers[1]!.token, 'PRO');
    await subscribe(server, payers[2]!.token, 'PREMIUM');
    // A first-month cancellation is refunded and ends that subscription at once.
    expect((await server.request('POST', '/api/subscriptions/cancel', { token: payers[1]!.token })).status).toBe(200);
    await uploadFile(server, payers[0]!.token, 'a'.repeat(1000), { name: 'a.bin' });
    await uploadFile(server, payers[2]!.token, 'b'.repeat(234), { name: 'b.bin' });
    const gift = await createUser(server);
    await server.request('PATCH', `/api/admin/users/${gift.user.id}`, {
      token: operator.token,
      body: { plan: 'PREMIUM', planEndsAt: new Date(server.clock.now().getTime() + DAY).toISOString(), reason: 'Gift' },
    });
    await server.container.jobs.runNow(BACKGROUND_JOBS.storageFigures);

    const stats = await server.request('GET', '/api/admin/stats', { token: operator.token });
    expect(stats.status).toBe(200);
    const pro = 9.99;
    const premium = server.container.plans.get('PREMIUM').price;
    const month = server.clock.now().toISOString().slice(0, 7);
    expect(stats.body).toMatchObject({
      users: 5,
      activeSubscriptions: { PRO: 1, PREMIUM: 1 },
      complimentarySubscriptions: { PRO: 0, PREMIUM: 1 },
      mrr: Math.round((pro + premium) * 100) / 100,
      storageUsed: 1234,
      files: 2,
      newUsers: { week: 5, month: 5 },
      pastDue: 0,
      suspendedUsers: 0,
      refunds: { count: 1, amount: pro },
      health: { database: 'ok', blobStore: 'ok' },
    });
    expect(stats.body.revenueByMonth).toHaveLength(12);
    expect(stats.body.revenueByMonth.at(-1)).toEqual({
      month,
      invoiced: Math.round((2 * pro + premium) * 100) / 100,
      refunded: pro,
      net: Math.round((pro + premium) * 100) / 100,
    });
    expect(stats.body.storageHistory).toEqual([{ day: server.clock.now().toISOString().slice(0, 10), bytes: 1234 }]);
    expect(
      stats.body.largestAccounts.slice(0, 2).map((account: { id: string; storageUsed: number }) => [account.id, account.storageUsed]),
    ).toEqual([
      [payers[0]!.user.id, 1000],
      [payers[2]!.user.id, 234],
    ]);
    expect(stats.body.health.mailQueue.pending).toBeGreaterThanOrEqual(0);
    // pg-boss reports its queues only on a node where the runner was started, which test servers do not.
    const jobNames = stats.body.health.jobs.map((job: { name: string }) => job.name);
    if (server.container.jobs.driver === 'in-process') expect(jobNames).toContain(BACKGROUND_JOBS.complimentaryPlanEnds);
    else expect(jobNames).toEqual([]);
  });

  it('npm run admin grants and revokes the role kept in the database, audited as the command line', async () => {
    const user = await createUser(server);
    const run = (...args: string[]) =>
      new Promise<{ status: number; output: string }>((resolve) => {
        execFile(
          'npm',
          ['run', '--silent', 'admin', '--', ...args],
          { cwd: root, env: { ...process.env, DATABASE_URL: '', ...server.env }, encoding: 'utf8' },
          (error, stdout, stderr) => {
            resolve({ status: error ? Number(error.code ?? 1) : 0, output: stdout + stderr });
          },
        );
      });
    expect((await server.request('GET', '/api/admin/users', { token: user.token })).status).toBe(403);
    const granted = await run('grant', user.email);
    expect(granted.output).toContain('is an operator now');
    expect(granted.status).toBe(0);
    expect((await server.request('GET', '/api/auth/profile', { token: user.token })).body.user.role).toBe('admin');
    expect((await server.request('GET', '/api/admin/users', { token: user.token })).status).toBe(200);
    expect((await run('revoke', user.email)).status).toBe(0);
    expect((await server.request('GET', '/api/admin/users', { token: user.token })).status).toBe(403);
    expect((await run('grant', 'nobody@example.com')).status).toBe(1);
    expect((await run('promote', user.email)).status).toBe(2);
    const entries = await auditOf(server, operator.token, user.user.id);
    expect(entries.map((entry) => [entry.action, entry.adminId])).toEqual([
      ['revoke_role', null],
      ['grant_role', null],
    ]);
  });
});
