import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { uploadFile } from '@cloudvault/test-support/drive';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function dbCheck() {
  const env = { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: server.container.config.databaseUrl ?? '', SINGLE_NODE: '1' };
  return spawnSync('npm', ['run', '--silent', 'db:check'], { cwd: root, env, encoding: 'utf8' });
}

describe('npm run db:check', () => {
  it('passes when every counter matches its files and names the user whose counter drifted', async () => {
    const { token, user, email } = await createUser(server);
    await uploadFile(server, token, 'twelve bytes', { name: 'a.txt' });
    const consistent = dbCheck();
    expect(consistent.stdout).toContain('Storage is consistent');
    expect(consistent.status).toBe(0);

    await server.container.database.db.updateTable('users').set({ storage_used: 999 }).where('id', '=', user.id).execute();
    const drifted = dbCheck();
    expect(drifted.status).toBe(1);
    expect(drifted.stdout).toContain(`DRIFT ${email} (${user.id}): storageUsed 999, files total 12`);
  });
});
