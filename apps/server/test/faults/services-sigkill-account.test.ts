import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { countOwned, expectConsistent, type KillableNode, killPoints, startKillableNode } from '../helpers/killable-node.ts';
import { seedTree } from '../helpers/seeded-tree.ts';

/**
 * A node SIGKILLed while it deletes an account, restarted on the same data: once the storage
 * jobs ran, `npm run db:check` passes and the account is gone with its bytes or wholly there
 * (docs/decisions/0021, 0041).
 */
let node: KillableNode;
beforeAll(async () => {
  node = await startKillableNode();
});
afterAll(async () => {
  await node?.stop();
});

it('deletes an account wholly or not at all when the node is killed during the deletion', async () => {
  const outcomes: string[] = [];
  let userId = '';
  const gone = async () => (await node.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) === undefined;
  for (const [when, point] of killPoints(gone)) {
    const user = await createUser(node);
    userId = user.user.id;
    const tree = await seedTree({
      db: node.db,
      dataDir: node.dataDir,
      userId,
      parentId: null,
      name: 'everything',
      folders: 10,
      filesPerFolder: 300,
    });
    const keys = (await node.db.selectFrom('files').select('blob_key').where('id', 'in', tree.fileIds).execute()).map(
      (row) => row.blob_key,
    );
    const answer = await node.killDuring('DELETE', '/api/user/account', user.token, point, { password: user.password });
    await node.restart();
    await node.converge();
    await expectConsistent(node, `an account deletion killed ${when}`);

    const signIn = await fetch(`${node.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    const files = await countOwned(node.db, 'files', userId);
    const blobs = (await Promise.all(keys.map(node.blobExists))).filter(Boolean).length;
    outcomes.push(`${when}: ${answer}, account ${signIn.status === 200 ? 'kept' : 'deleted'}`);
    if (answer === 200) expect(signIn.status, 'an acknowledged deletion stays done').toBe(401);
    if (signIn.status === 200) {
      expect({ files, blobs }, `the account is whole (${when})`).toEqual({ files: keys.length, blobs: keys.length });
    } else {
      expect(signIn.status).toBe(401);
      expect({ files, blobs }, `the account is gone with its bytes (${when})`).toEqual({ files: 0, blobs: 0 });
    }
  }
  console.log(`Account deletions killed: ${outcomes.join('; ')}`);
});
