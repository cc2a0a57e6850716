import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { request } from '@cloudvault/test-support/running-server';
import { countOwned, expectConsistent, type KillableNode, killPoints, startKillableNode } from '../helpers/killable-node.ts';
import { seedTree } from '../helpers/seeded-tree.ts';

/**
 * A node SIGKILLed while it empties a large Trash, restarted on the same data: once the
 * storage jobs ran, `npm run db:check` passes and every item is gone with its bytes or still
 * whole and restorable (docs/decisions/0021, 0036, 0041).
 */
const FOLDERS = 10;
const FILES_PER_FOLDER = 300;

let node: KillableNode;
beforeAll(async () => {
  node = await startKillableNode();
});
afterAll(async () => {
  await node?.stop();
});

const seed = (userId: string, parentId: string | null, name: string) =>
  seedTree({ db: node.db, dataDir: node.dataDir, userId, parentId, name, folders: FOLDERS, filesPerFolder: FILES_PER_FOLDER });

it(`empties a Trash of ${FOLDERS * FILES_PER_FOLDER} files page by page when the node is killed: what is left is whole and restorable`, async () => {
  const user = await createUser(node);
  const outcomes: string[] = [];
  for (const [when, point] of killPoints(async () => (await countOwned(node.db, 'files', user.user.id)) < FOLDERS * FILES_PER_FOLDER)) {
    const tree = await seed(user.user.id, null, `trashed ${when}`);
    expect((await request(node, 'DELETE', `/api/user/folders/${tree.rootId}`, { token: user.token })).status).toBe(200);
    const answer = await node.killDuring('DELETE', '/api/trash', user.token, point);
    await node.restart();
    await node.converge();
    await expectConsistent(node, `emptying Trash killed ${when}`);

    const left = await node.db.selectFrom('files').select(['id', 'blob_key']).where('id', 'in', tree.fileIds).execute();
    outcomes.push(`${when}: ${answer}, ${left.length} files left`);
    if (answer === 204) expect(left, 'an acknowledged purge left nothing').toEqual([]);
    for (const file of left) expect(await node.blobExists(file.blob_key), 'a file left in Trash keeps its bytes').toBe(true);
    const trash = (await request<{ folders: { id: string }[] }>(node, 'GET', '/api/trash', { token: user.token })).body;
    const folderListed = trash.folders.some((folder) => folder.id === tree.rootId);
    expect(folderListed, `the folder is in Trash exactly while files of it are (${when}, ${left.length} left)`).toBe(left.length > 0);
    if (left.length > 0) {
      // Restorable as the item it was: the folder comes back with every file left, bytes intact.
      expect(
        (await request(node, 'POST', '/api/trash/restore', { token: user.token, body: { type: 'folder', id: tree.rootId } })).status,
      ).toBe(200);
      const live = await node.db.selectFrom('files').select('id').where('id', 'in', tree.fileIds).where('deleted_at', 'is', null).execute();
      expect(live.length, 'every file left came back').toBe(left.length);
      const download = await fetch(`${node.url}/api/files/${left[0]!.id}/download`, { headers: { authorization: `Bearer ${user.token}` } });
      expect((await download.arrayBuffer()).byteLength).toBe(32);
      expect((await request(node, 'DELETE', `/api/user/folders/${tree.rootId}`, { token: user.token })).status).toBe(200);
    }
    expect((await request(node, 'DELETE', '/api/trash', { token: user.token })).status).toBe(204);
    expect(await countOwned(node.db, 'files', user.user.id)).toBe(0);
  }
  console.log(`Trash purges killed: ${outcomes.join('; ')}`);
  await expectConsistent(node, 'the Trash emptied again');
  const dashboard = (await request<{ storageInfo: { storageUsed: number } }>(node, 'GET', '/api/user/dashboard', { token: user.token }))
    .body;
  expect(dashboard.storageInfo.storageUsed, 'storage used back to nothing').toBe(0);
});
