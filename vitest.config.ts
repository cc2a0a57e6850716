import { configDefaults, defineConfig } from 'vitest/config';
import { englishSections } from './apps/web/vite-plugins/english-sections.ts';

/**
 * Four levels, run separately by scripts/test.mjs so each can be required or skipped
 * loudly: unit (pure logic and components), integration (real server over HTTP),
 * e2e (the built app in Debian's Chromium), cluster (two server processes behind haproxy
 * on PostgreSQL, S3 and Redis).
 */
const CLUSTER_TESTS = 'apps/server/test/cluster';
/**
 * Faults caused for real (a full disk, a failing object store, PostgreSQL and Redis
 * restarted, slowloris, SIGKILL mid-write): they restart shared services, so they run alone,
 * one file at a time, in a phase of their own.
 */
const FAULT_TESTS = 'apps/server/test/faults';

/**
 * Integration files that only bite in one of the runs scripts/test.mjs makes. They are left
 * out of collection elsewhere (not skipped: a skipped test fails CI).
 */
function integrationExclusions(): string[] {
  const env = process.env;
  // The two-node suite runs alone, from `npm run test:cluster`.
  const excluded: string[] = [`${CLUSTER_TESTS}/**`, `${FAULT_TESTS}/**`];
  // The tree races line up their interleaving with PostgreSQL row locks, and several nodes
  // on one database need PostgreSQL: SQLite runs one writer at a time, so there they could
  // never fail.
  if (env.TEST_DB !== 'postgres') excluded.push('apps/server/test/tree-races.test.ts', 'apps/server/test/jobs-postgres.test.ts');
  // Early answers are about sockets, not the database or the store: their hundred rounds
  // (about a minute) run once, in the first run (SQLite, local disk, native addon).
  const firstRun = env.TEST_DB === 'sqlite' && env.TEST_STORAGE !== 's3' && env.CLOUDVAULT_NATIVE !== '0';
  if (!firstRun) excluded.push('apps/server/test/early-answers.test.ts');
  // litmus, rclone and cadaver check the protocol against real clients (two minutes, a
  // 100 MB file): once, in the first run; the rules they rest on are dav.test.ts's, run everywhere.
  if (!firstRun) excluded.push('apps/server/test/dav-litmus.test.ts', 'apps/server/test/dav-rclone.test.ts', 'apps/server/test/dav-cadaver.test.ts');
  return excluded;
}

export default defineConfig({
  test: {
    projects: [
      {
        // The web app's i18n imports en.json through this plugin (all of it, under test).
        plugins: [englishSections([])],
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...integrationExclusions()],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'faults',
          include: [`${FAULT_TESTS}/*.test.ts`],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'cluster',
          include: [`${CLUSTER_TESTS}/*.test.ts`],
          // Each file runs its own cluster (two server processes, haproxy, s3rver): one at a time.
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
