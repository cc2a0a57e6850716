import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createUser } from '@cloudvault/test-support/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { davClientTestsRun, requireDavClient } from './helpers/dav-clients.ts';
import { davPassword } from './helpers/dav-requests.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

/** Runs cadaver with the commands on its standard input; its credentials come from a .netrc in HOME. */
function cadaver(url: string, home: string, commands: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('cadaver', [url], { cwd: home, env: { ...process.env, HOME: home }, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(output);
    });
    child.stdin.end(`${[...commands, 'quit'].join('\n')}\n`);
  });
}

describe.runIf(davClientTestsRun('cadaver'))('a cadaver session against /dav/', () => {
  let server: TestServer;
  let home: string;
  beforeAll(async () => {
    requireDavClient('cadaver');
    server = await startTestServer();
    home = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-cadaver-'));
  });
  afterAll(async () => {
    await server?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('makes a folder, uploads, sets and reads a property, locks, copies, moves, downloads and deletes', async () => {
    const user = await createUser(server);
    await writeFile(path.join(home, '.netrc'), `machine 127.0.0.1 login ${user.email} password ${await davPassword(server, user)}\n`, {
      mode: 0o600,
    });
    await writeFile(path.join(home, 'local.txt'), 'hello from cadaver\n');
    const output = await cadaver(`${server.url}/dav/`, home, [
      'mkcol docs',
      'put local.txt docs/a.txt',
      'propset docs/a.txt colour red',
      'propget docs/a.txt colour',
      'lock docs/a.txt',
      'discover docs/a.txt',
      'unlock docs/a.txt',
      'copy docs/a.txt docs/b.txt',
      'move docs/b.txt docs/c.txt',
      'get docs/c.txt back.txt',
      'rm docs/a.txt',
      'ls docs',
    ]);
    expect(output).not.toMatch(/failed/i);
    expect(output.match(/succeeded/g)?.length).toBe(10);
    expect(output).toContain('Value of colour is: red');
    expect(output).toMatch(/Scope: exclusive {2}Type: write/);
    expect(output).toMatch(/c\.txt\s+19/);
    expect(output).not.toMatch(/\sa\.txt\s+19/);
    expect(await readFile(path.join(home, 'back.txt'), 'utf8')).toBe('hello from cadaver\n');
  });
});
