import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCredentials, saveCredentials } from './credentials.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('credentials', () => {
  it('are kept readable by the user only and read back', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cv-cred-'));
    const configDir = path.join(dir, 'nested', 'cloudvault');
    const credentials = { server: 'http://127.0.0.1:1', email: 'a@b.co', device: 'laptop', appPassword: 'secret' };
    await saveCredentials(configDir, credentials);
    expect((await stat(configDir)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(configDir, 'credentials.json'))).mode & 0o777).toBe(0o600);
    expect(await loadCredentials(configDir)).toEqual(credentials);
  });

  it('answer a readable reason when there are none', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cv-cred-'));
    expect(await loadCredentials(dir)).toEqual({ error: expect.stringContaining('cloudvault login') });
  });
});
