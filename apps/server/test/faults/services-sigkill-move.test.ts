import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder } from '@cloudvault/test-support/drive';
import { request } from '@cloudvault/test-support/running-server';
import { expectConsistent, type KillableNode, killPoints, startKillableNode } from '../helpers/killable-node.ts';
import { seedTree } from '../helpers/seeded-tree.ts';

/**
 * A node SIGKILLed while it moves a large folder, restarted on the same data: `npm run
 * db:check` passes and the move happened wholly or not at all (docs/decisions/0041).
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

it(`moves a folder of ${FOLDERS * FILES_PER_FOLDER} files wholly or not at all when the node is killed during the move`, async () => {
  const user = await createUser(node);
  const outcomes: string[] = [];
  let moving = { id: '', to: '' };
  // One statement: its progress is the move itself, so the last kill comes between commit and answer.
  const moved = async () =>
    (await node.db.selectFrom('folders').select('parent_id').where('id', '=', moving.id).executeTakeFirst())?.parent_id === moving.to;
  for (const [when, point] of killPoints(moved)) {
    const from = await createFolder(node, user.token, `from ${when}`);
    const to = await createFolder(node, user.token, `to ${when}`);
    const tree = await seed(user.user.id, from.id, 'big');
    moving = { id: tree.rootId, to: to.id };
    const answer = await node.killDuring('PATCH', `/api/user/folders/${tree.rootId}`, user.token, point, { parentId: to.id });
    // A move frees and queues nothing, so there is nothing for the storage jobs to converge.
    await node.restart();
    await expectConsistent(node, `a move killed ${when}`);

    const isMoved = await moved();
    outcomes.push(`${when}: ${answer}, ${isMoved ? 'moved' : 'not moved'}`);
    if (answer === 200) expect(isMoved, 'an acknowledged move stays done').toBe(true);
    const listed = async (parentId: string) =>
      (
        await request<{ folders: { id: string }[] }>(node, 'GET', `/api/user/folders?parentId=${parentId}`, { token: user.token })
      ).body.folders.map((folder) => folder.id);
    expect([...(await listed(from.id)), ...(await listed(to.id))], `listed in exactly one of the two places (${when})`).toEqual([
      tree.rootId,
    ]);
    const files = await node.db.selectFrom('files').select(['folder_id', 'deleted_at']).where('user_id', '=', user.user.id).execute();
    expect(files.length).toBe(tree.fileIds.length * outcomes.length);
    expect(
      files.every((file) => file.deleted_at === null),
      'every file still live',
    ).toBe(true);
    const subFolders = await node.db.selectFrom('folders').select('parent_id').where('id', 'in', tree.folderIds).execute();
    expect(
      subFolders.every((folder) => folder.parent_id === tree.rootId),
      'the tree moved as one',
    ).toBe(true);
  }
  console.log(`Moves killed: ${outcomes.join('; ')}`);
});
