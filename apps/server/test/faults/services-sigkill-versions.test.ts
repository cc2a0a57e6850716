import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { BACKGROUND_JOBS } from '../../src/background-jobs.ts';
import { VERSIONS_KEPT } from '../../src/modules/versions/versions.service.ts';
import { countOwned, expectConsistent, type KillableNode, killPoints, startKillableNode } from '../helpers/killable-node.ts';
import { seedTree } from '../helpers/seeded-tree.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * The retention job SIGKILLed while it purges expired versions: once the storage jobs ran,
 * `npm run db:check` passes and each version is gone with its bytes or whole (docs/decisions/0021, 0041).
 */
let node: KillableNode;
beforeAll(async () => {
  node = await startKillableNode();
});
afterAll(async () => {
  await node?.stop();
});

it('purges expired versions page by page when the job is killed midway: each version gone with its bytes, or whole', async () => {
  const user = await createUser(node);
  const outcomes: string[] = [];
  const fileIds: string[] = [];
  let versionIds: string[] = [];
  const versionsLeft = async () =>
    Number(
      (
        await node.db
          .selectFrom('file_versions')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('id', 'in', versionIds)
          .executeTakeFirstOrThrow()
      ).count,
    );
  for (const [when, point] of killPoints(async () => (await versionsLeft()) < versionIds.length)) {
    // 250 versions of each of 8 files: 150 of each past what is kept, three pages' worth.
    const tree = await seedTree({
      db: node.db,
      dataDir: node.dataDir,
      userId: user.user.id,
      parentId: null,
      name: `versioned ${when}`,
      folders: 4,
      filesPerFolder: 2,
      versionsPerFile: VERSIONS_KEPT + 150,
    });
    fileIds.push(...tree.fileIds);
    versionIds = tree.versionIds;
    const job = node.runJobs(BACKGROUND_JOBS.retention);
    await waitFor('the retention job to start', async () => job.output().includes(`job ${BACKGROUND_JOBS.retention} started`), 30_000, 5);
    if ('afterMs' in point) await new Promise((resolve) => setTimeout(resolve, point.afterMs));
    else
      await waitFor(
        'the purge to show progress',
        async () => (await point.progressed()) || job.output().includes(`job ${BACKGROUND_JOBS.retention}:`),
        30_000,
        2,
      );
    job.kill();
    await job.done;
    await node.converge();
    await expectConsistent(node, `a version purge killed ${when}`);
    const left = await node.db.selectFrom('file_versions').select('blob_key').where('id', 'in', versionIds).execute();
    outcomes.push(`${when}: ${left.length} of ${versionIds.length} versions left`);
    for (const version of left) expect(await node.blobExists(version.blob_key), 'a version left keeps its bytes').toBe(true);
  }
  console.log(`Version purges killed: ${outcomes.join('; ')}`);
  await node.runJobs(BACKGROUND_JOBS.retention).done;
  await node.converge();
  expect(await countOwned(node.db, 'file_versions', user.user.id), 'the purge finished on a later run').toBe(
    fileIds.length * VERSIONS_KEPT,
  );
  await expectConsistent(node, 'the version purge finished');
});
