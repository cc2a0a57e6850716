import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServerProcess, spawnServer, startServerProcess } from './helpers/server-process.ts';
import { startSlowUpload } from './helpers/slow-upload.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function register(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Ada',
      lastName: 'Node',
      email: `ada-${randomBytes(4).toString('hex')}@example.com`,
      password: 'correct horse battery',
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

describe('a node that is told to stop (SIGTERM)', () => {
  it('answers readiness 503 while a running upload still completes with 201, then exits 0 and takes no more connections', async () => {
    server = await startServerProcess();
    const { url } = server;
    const token = await register(url);
    expect((await fetch(`${url}/api/health/ready`)).status).toBe(200);

    const content = randomBytes(2 * 1024 * 1024);
    const upload = startSlowUpload(url, token, content);
    // The server has the upload once it logs it; from then on it is a request already running.
    await server.waitForOutput(/"url":"\/api\/files\/upload"/);
    server.child.kill('SIGTERM');
    await server.waitForOutput(/"signal":"SIGTERM".*shutting down/);

    const ready = await fetch(`${url}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('connection')).toBe('close');
    expect(await ready.json()).toMatchObject({ code: 'SHUTTING_DOWN' });
    // Any other new request is turned away the same way; the liveness check still answers.
    expect((await fetch(`${url}/api/auth/profile`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(503);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);

    upload.finish();
    const answer = await upload.answer;
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toMatchObject({ file: { originalName: 'slow.bin', size: content.length } });

    expect(await server.exited).toBe(0);
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
    expect(server.output()).toMatch(/shut down/);
  });

  it('cuts an upload still running when the grace period ends, lets it release what it reserved, and exits 0', async () => {
    server = await startServerProcess({ SHUTDOWN_GRACE_SECONDS: '1' });
    const token = await register(server.url);
    const upload = startSlowUpload(server.url, token, randomBytes(1024 * 1024));
    await server.waitForOutput(/"url":"\/api\/files\/upload"/);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toMatch(/shutdown grace period over/);
    expect((await upload.answer).status).not.toBe(201);
    // The cut upload cleaned up before the database closed: no reservation is left behind.
    expect(server.output()).toMatch(/upload stopped by the client/);
    const check = spawnSync('npm', ['run', '--silent', 'db:check'], {
      cwd: root,
      env: { ...process.env, ...server.env },
      encoding: 'utf8',
    });
    expect(check.stdout).toContain('Storage is consistent');
  });
});

describe('start-up', () => {
  it('refuses PostgreSQL with blobs on local disk and the mail outbox, in one line, unless SINGLE_NODE says the server runs alone', async () => {
    const refused = spawnServer({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/never-opened',
      STORAGE_DRIVER: 'local',
      SMTP_URL: '',
      SINGLE_NODE: '',
    });
    expect(await refused.exited).toBe(1);
    expect(refused.output().trim().split('\n')).toEqual([
      'Configuration error: DATABASE_URL is PostgreSQL, which several nodes can share, but blobs on local disk (STORAGE_DRIVER=local) and the mail outbox folder (no SMTP_URL) would be seen by this node only: set STORAGE_DRIVER=s3 and SMTP_URL, or SINGLE_NODE=1 if this server runs alone',
    ]);
  });
});
