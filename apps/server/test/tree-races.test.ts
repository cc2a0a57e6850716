import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, downloadFile, uploadFile } from '@cloudvault/test-support/drive';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { assertStorageConsistent } from './helpers/storage-totals.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const ROUNDS = 5;

/**
 * Locks the rows from another connection until the returned function is called: requests
 * then queue on them in the order they were sent, which lines up the interleaving a race
 * needs every time instead of by chance. PostgreSQL only: SQLite runs one writer at a time,
 * so these races cannot happen there, and vitest.config.ts collects this file only when
 * TEST_DB=postgres.
 */
async function lockRows(table: 'folders' | 'files' | 'users', ids: string[]): Promise<() => Promise<void>> {
  const { db } = server.container.database;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holding = db.transaction().execute(async (trx) => {
    await sql`SELECT id FROM ${sql.table(table)} WHERE id IN (${sql.join(ids)}) FOR UPDATE`.execute(trx);
    locked();
    await released;
  });
  await isLocked;
  return async () => {
    release();
    await holding;
  };
}

/** Waits until `count` statements on this server's database are queued on a lock, as PostgreSQL reports it. */
async function queuedOnLocks(count: number): Promise<void> {
  const { db } = server.container.database;
  const waiting = async () => {
    const { rows } = await sql<{
      waiting: string;
    }>`SELECT count(*) AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db);
    return Number(rows[0]?.waiting);
  };
  await expect.poll(waiting, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
}

describe('tree changes that race each other', () => {
  it('never lets two crossing folder moves make a cycle: one moves, the other answers 409', async () => {
    const { token } = await createUser(server);
    const a = await createFolder(server, token, 'A');
    const b = await createFolder(server, token, 'B');
    for (let round = 0; round < ROUNDS; round += 1) {
      // Both moves check their target before either writes, then wait on the held rows.
      const unlock = await lockRows('folders', [a.id, b.id]);
      const moves = Promise.all([
        server.request('PATCH', `/api/user/folders/${a.id}`, { token, body: { parentId: b.id } }),
        server.request('PATCH', `/api/user/folders/${b.id}`, { token, body: { parentId: a.id } }),
      ]);
      await queuedOnLocks(2);
      await unlock();
      const [intoB, intoA] = await moves;
      expect([intoB.status, intoA.status].sort()).toEqual([200, 409]);
      for (const folder of [a, b]) {
        const path = await server.request('GET', `/api/user/folders/${folder.id}/path`, { token });
        expect(path.status).toBe(200);
        expect(path.body.path[0].parentId).toBeNull();
      }
      const moved = intoB.status === 200 ? a : b;
      expect((await server.request('PATCH', `/api/user/folders/${moved.id}`, { token, body: { parentId: null } })).status).toBe(200);
    }
  });

  it('never moves a folder into one that went to Trash after the move checked it', async () => {
    const { token, user } = await createUser(server);
    for (let round = 0; round < ROUNDS; round += 1) {
      const target = await createFolder(server, token, `Target ${round}`);
      const moving = await createFolder(server, token, `Moving ${round}`);
      const bytes = randomBytes(1500);
      const file = (await uploadFile(server, token, bytes, { name: 'inside.bin', folderId: moving.id })).body.file;

      // Trash waits for the user first; the move has checked its target by the time it queues.
      const unlock = await lockRows('users', [user.id]);
      const trashing = server.request('DELETE', `/api/user/folders/${target.id}`, { token });
      await queuedOnLocks(1);
      const move = server.request('PATCH', `/api/user/folders/${moving.id}`, { token, body: { parentId: target.id } });
      await queuedOnLocks(2);
      await unlock();
      const [trashed, moved] = await Promise.all([trashing, move]);

      expect(trashed.status).toBe(200);
      if (moved.status === 200) {
        // The move went first: the folder went to Trash with its new parent.
        expect((await downloadFile(server, token, file.id)).status).toBe(404);
      } else {
        expect(moved.status).toBe(404);
        const path = await server.request('GET', `/api/user/folders/${moving.id}/path`, { token });
        expect(path.body.path.map((folder: { id: string }) => folder.id)).toEqual([moving.id]);
      }
      expect((await server.request('DELETE', '/api/trash', { token })).status).toBe(204);
      if (moved.status !== 200) expect((await downloadFile(server, token, file.id)).bytes.equals(bytes)).toBe(true);
      await assertStorageConsistent(server, user.id);
    }
  });

  it('never lets Empty Trash delete what a restore brought back at the same moment', async () => {
    const { token, user } = await createUser(server);
    for (let round = 0; round < ROUNDS; round += 1) {
      const folder = await createFolder(server, token, `Round ${round}`);
      const bytes = randomBytes(2000);
      const file = (await uploadFile(server, token, bytes, { name: 'kept.bin', folderId: folder.id })).body.file;
      expect((await server.request('DELETE', `/api/user/folders/${folder.id}`, { token })).status).toBe(200);

      // The restore reaches the held file row first; Empty Trash has by then read what to delete.
      const unlock = await lockRows('files', [file.id]);
      const restoring = server.request('POST', '/api/trash/restore', { token, body: { type: 'folder', id: folder.id } });
      await queuedOnLocks(1);
      const emptying = server.request('DELETE', '/api/trash', { token });
      await queuedOnLocks(2);
      await unlock();
      const [restore, empty] = await Promise.all([restoring, emptying]);
      expect(empty.status).toBe(204);
      const download = await downloadFile(server, token, file.id);
      if (restore.status === 200) {
        // Restored first: the purge found nothing in Trash, and the file is whole.
        expect(download.status).toBe(200);
        expect(download.bytes.equals(bytes)).toBe(true);
      } else {
        // Purged first: the restore found nothing to bring back.
        expect(restore.status).toBe(404);
        expect(download.status).toBe(404);
      }
      await assertStorageConsistent(server, user.id);
    }
  });
});
