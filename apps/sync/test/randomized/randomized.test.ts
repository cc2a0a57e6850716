import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { runScenario } from './scenario.ts';

/**
 * The sync client against a model: seeded random changes on two devices and the web, with
 * kills, server restarts and cut connections, then a quiesce and the checks of scenario.ts.
 * CI runs four fixed seeds of 60 steps (about four minutes on two busy cores). Longer runs:
 *   SYNC_SEED=123 SYNC_OPS=300 npx vitest run --project sync apps/sync/test/randomized   (one seed, replayed)
 *   SYNC_SEEDS=20 SYNC_OPS=300 npx vitest run --project sync apps/sync/test/randomized  (20 fresh seeds)
 *   SYNC_SEEDS=5,9,11 ...                                                                (those seeds)
 * SYNC_FAULTS=0 leaves the faults out (to tell a fault's bug from a plain one); SYNC_VERBOSE=1
 * keeps every pass's actions in the steps.log a failure keeps, to follow a lost content.
 */
const env = process.env;
const ops = Number(env.SYNC_OPS ?? 60);
const faults = env.SYNC_FAULTS !== '0';

function chosenSeeds(): number[] {
  if (env.SYNC_SEED) return [Number(env.SYNC_SEED)];
  // Seed 5 runs without versions (replaced contents go to Trash), the others with them.
  if (!env.SYNC_SEEDS) return [1, 2, 3, 5];
  if (env.SYNC_SEEDS.includes(',')) return env.SYNC_SEEDS.split(',').map(Number);
  return Array.from({ length: Number(env.SYNC_SEEDS) }, () => Math.floor(Math.random() * 2 ** 31));
}

for (const seed of chosenSeeds()) {
  // A step takes about a second (most are a pass of the client, a process of its own); the quiesce a few more.
  test(
    `seed ${seed}: ${ops} random steps${faults ? ' with faults' : ''}, then every side holds the same tree and nothing is lost`,
    { timeout: 120_000 + ops * 4_000 },
    async () => {
      const workDir = await mkdtemp(path.join(os.tmpdir(), `cloudvault-sync-${seed}-`));
      const report = await runScenario({ seed, ops, workDir, faults });
      console.log(report.summary);
      if (report.problems.length === 0) {
        await rm(workDir, { recursive: true, force: true });
        return;
      }
      const logFile = path.join(workDir, 'steps.log');
      await writeFile(logFile, `${report.log.join('\n')}\n`);
      const replay = `SYNC_SEED=${seed} SYNC_OPS=${ops}${faults ? '' : ' SYNC_FAULTS=0'} npx vitest run --project sync apps/sync/test/randomized`;
      expect.fail(
        [
          report.summary,
          // The first problems say enough; the whole run is in the steps file.
          ...report.problems.slice(0, 60),
          `Replay: ${replay}`,
          `The steps: ${logFile} (the folders, config dirs and server data are kept beside it); the last ones:`,
          ...report.log.slice(-40),
        ].join('\n'),
      );
    },
  );
}
