import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { BACKGROUND_JOBS } from '../../src/background-jobs.ts';
import { countOwned, expectConsistent, type KillableNode, killPoints, startKillableNode } from '../helpers/killable-node.ts';
import { seedTree } from '../helpers/seeded-tree.ts';

/**
 * A node SIGKILLed while it copies a large folder, restarted on the same data: once the
 * storage jobs ran (the reservation's lease out, the sweeper past its grace), `npm run
 * db:check` passes, the copy is listed wholly or not at all, and no copied blob is left
 * unreferenced (docs/decisions/0043-server-side-copy.md).
 */
const FOLDERS = 4;
// Enough that the copy is still running when the kill lands after the first hundred blobs, on a loaded machine too.
const FILES_PER_FOLDER = 600;
const LEASE_SECONDS = 1;

let node: KillableNode;
beforeAll(async () => {
  // No grace: the sweeper may take any unreferenced blob, as it does a day after a real crash.
  node = await startKillableNode({ UPLOAD_LEASE_SECONDS: String(LEASE_SECONDS), STORAGE_SWEEP_GRACE_SECONDS: '0' });
});
afterAll(async () => {
  await node?.stop();
});

/** Every blob file the local store holds. */
async function storedBlobCount(): Promise<number> {
  const entries = await readdir(path.join(node.dataDir, 'blobs'), { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && !entry.parentPath.includes('.tmp')).length;
}

it(`copies a folder of ${FOLDERS * FILES_PER_FOLDER} files wholly or not at all when the node is killed during the copy`, async () => {
  const user = await createUser(node);
  const userId = user.user.id;
  const outcomes: string[] = [];
  let blobsBefore = 0;
  // Blobs copied and not listed yet: the copy is half done, and only the sweeper can find them.
  const copying = async () => (await storedBlobCount()) > blobsBefore + 100;
  for (const [when, point] of killPoints(copying)) {
    const tree = await seedTree({
      db: node.db,
      dataDir: node.dataDir,
      userId,
      parentId: null,
      name: `source ${when}`,
      folders: FOLDERS,
      filesPerFolder: FILES_PER_FOLDER,
    });
    await node.db
      .updateTable('users')
      .set({ storage_used: (eb) => eb('storage_used', '+', tree.bytes) })
      .where('id', '=', userId)
      .execute();
    const filesBefore = await countOwned(node.db, 'files', userId);
    blobsBefore = await storedBlobCount();

    const answer = await node.killDuring('POST', `/api/user/folders/${tree.rootId}/copy`, user.token, point, { parentId: null });
    // Counted while the node is down, before anything it does on restart can touch them.
    const strays = (await storedBlobCount()) - (await countOwned(node.db, 'files', userId));
    await node.restart();
    await new Promise((resolve) => setTimeout(resolve, LEASE_SECONDS * 1000 + 200));
    await node.converge();
    await node.runJobs(BACKGROUND_JOBS.storageSweeper).done;
    await expectConsistent(node, `a copy killed ${when}`);

    const files = await countOwned(node.db, 'files', userId);
    const copied = files > filesBefore;
    outcomes.push(`${when}: ${answer}, ${copied ? 'copied' : 'not copied'}, ${strays} unlisted blobs swept`);
    if ('progressed' in point) expect(strays, `killed with blobs copied and not listed (answer ${answer})`).toBeGreaterThan(0);
    if (answer === 201) expect(copied, 'an acknowledged copy stays').toBe(true);
    expect(files, `the copy listed wholly or not at all (${when})`).toBe(copied ? filesBefore + tree.fileIds.length : filesBefore);
    expect(await storedBlobCount(), `every stored blob is a listed file's (${when})`).toBe(files);
    const reservations = await node.db.selectFrom('upload_reservations').select('id').where('user_id', '=', userId).execute();
    expect(reservations).toEqual([]);
  }
  console.log(`Copies killed: ${outcomes.join('; ')}`);
});
