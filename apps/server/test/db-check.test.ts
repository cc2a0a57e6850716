import { execFile } from 'node:child_process';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { uploadFile } from '@cloudvault/test-support/drive';
import { naturalSortKey } from '@cloudvault/contract/sort-keys';
import { newId } from '../src/lib/ids.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/**
 * `npm run db:check` against the server's database and blob store. Asynchronous: with
 * TEST_STORAGE=s3 the check asks the s3rver this process runs.
 */
function dbCheck(): Promise<{ status: number; stdout: string }> {
  // The server's own environment: its database and its blob store, local or S3.
  const env = { ...process.env, DATABASE_URL: '', ...server.env };
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'db:check'], { cwd: root, env, encoding: 'utf8' }, (error, stdout) => {
      resolve({ status: error ? Number(error.code ?? 1) : 0, stdout });
    });
  });
}

describe('npm run db:check', () => {
  it('passes when every counter matches its files and names the user whose counter drifted', async () => {
    const { token, user, email } = await createUser(server);
    await uploadFile(server, token, 'twelve bytes', { name: 'a.txt' });
    const consistent = await dbCheck();
    expect(consistent.stdout).toContain('Storage is consistent');
    expect(consistent.status).toBe(0);

    await server.container.database.db.updateTable('users').set({ storage_used: 999 }).where('id', '=', user.id).execute();
    const drifted = await dbCheck();
    expect(drifted.status).toBe(1);
    expect(drifted.stdout).toContain(`DRIFT ${email} (${user.id}): storageUsed 999, files total 12`);
  });

  it("names and repairs each file and folder whose sort key is missing, empty or not its name's", async () => {
    const { token, user } = await createUser(server);
    const file = (await uploadFile(server, token, 'sorted', { name: 'Scan 10.pdf' })).body.file;
    const db = server.container.database.db;
    await db.updateTable('files').set({ sort_key: '' }).where('id', '=', file.id).execute();
    // Inserted as a script would, without the keys every write through the app sets beside the name.
    const folderId = newId();
    const now = new Date().toISOString();
    await db
      .insertInto('folders')
      .values({
        id: folderId,
        user_id: user.id,
        parent_id: null,
        name: 'Hand made 2',
        name_key: 'hand made 2',
        created_at: now,
        updated_at: now,
        deleted_at: null,
        trashed_root: 0,
      })
      .execute();

    const checked = await dbCheck();
    expect(checked.status).toBe(1);
    expect(checked.stdout).toContain(`SORT KEY files ${file.id}: the key stored for "Scan 10.pdf" was empty; repaired`);
    expect(checked.stdout).toContain(`SORT KEY folders ${folderId}: the key stored for "Hand made 2" was none; repaired`);
    const keys = async (table: 'files' | 'folders', id: string) =>
      (await db.selectFrom(table).select('sort_key').where('id', '=', id).executeTakeFirstOrThrow()).sort_key;
    expect(await keys('files', file.id)).toBe(naturalSortKey('Scan 10.pdf'));
    expect(await keys('folders', folderId)).toBe(naturalSortKey('Hand made 2'));
    expect((await dbCheck()).stdout).not.toContain('SORT KEY');
  });

  it('names each stored blob no row references and each row whose blob is missing', async () => {
    const { token } = await createUser(server);
    const kept = (await uploadFile(server, token, 'kept', { name: 'kept.txt' })).body.file;
    const lost = (await uploadFile(server, token, 'lost', { name: 'lost.txt' })).body.file;
    const db = server.container.database.db;
    const lostKey = (await db.selectFrom('files').select('blob_key').where('id', '=', lost.id).executeTakeFirstOrThrow()).blob_key;
    await server.container.blobs.delete(lostKey);
    const strayKey = newId();
    await server.container.blobs.put(strayKey, Readable.from([Buffer.from('stray')]));

    const checked = await dbCheck();
    expect(checked.status).toBe(1);
    expect(checked.stdout).toContain(`UNREFERENCED blob ${strayKey}`);
    expect(checked.stdout).toContain(`MISSING blob ${lostKey}, named by a file or version row`);
    expect(checked.stdout).not.toContain(kept.id);
    await server.container.blobs.delete(strayKey);
    await db.deleteFrom('files').where('id', '=', lost.id).execute();
  });
});
