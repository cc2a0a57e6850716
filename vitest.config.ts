import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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
 * restarted, slowloris, SIGKILL mid-write) on instances of their own: one file at a time, as
 * a fault's timing is what they measure, in a phase of their own.
 */
const FAULT_TESTS = 'apps/server/test/faults';

const INTEGRATION_TESTS = 'apps/server/test';
/** Builds the bundle the server process tests start (apps/server/test/helpers/server-process.ts). */
const SERVER_BUNDLE_SETUP = 'apps/server/test/helpers/server-bundle-setup.mjs';

/**
 * Every integration file, in one of two lists. The rule: a file is a storage file when what
 * it proves can differ with where blobs live (local disk or S3) or with the way bytes move
 * (the native addon or the portable paths): it writes, reads, copies, zips, thumbnails or
 * deletes stored bytes, or counts them. Those run in every integration phase; the others run
 * once per database (SQLite, PostgreSQL), since the S3 and portable phases change nothing
 * they prove. A new file must be placed here: the config refuses to load until it is.
 */
const STORAGE_TESTS = [
  'account.test.ts', // the export's zip byte for byte, a deletion's blobs
  'blob-store.test.ts',
  'copy.test.ts',
  'share-roles-uploads.test.ts', // editors' uploads, versions and copies on the owner's quota
  'copy-from-share.test.ts', // blobs copied out of another user's tree
  'upload-links.test.ts', // files visitors send through links, on the owner's storage, multipart and tus
  'crash-safe-storage.test.ts',
  'dav-cadaver.test.ts',
  'dav-failed-writes.test.ts', // COPY of stored files
  'dav-litmus.test.ts',
  'dav-rclone.test.ts',
  'dav-shared.test.ts', // what editors put in a shared folder, on its owner's storage
  'dav-unknown-length.test.ts',
  'dav.test.ts',
  'db-check.test.ts',
  'files.test.ts',
  'folder-zip.test.ts',
  'link-roles.test.ts', // downloads, views and zips through links with roles and limits
  'metrics.test.ts', // the bytes a transfer moved
  'name-clashes.test.ts', // replaced bytes kept as versions or in Trash
  'presigned-downloads.test.ts',
  'resumable-uploads-faults.test.ts',
  'resumable-uploads-isolation.test.ts',
  'resumable-uploads-protocol.test.ts',
  'resumable-uploads-tuspy.test.ts',
  'resumable-uploads.test.ts',
  'selection-zip.test.ts',
  'shares.test.ts', // downloads and zips through links
  'shutdown.test.ts', // uploads in flight
  'sync-downloads.test.ts', // the sync client's batches of downloads: bytes streamed from the store, cut when one is missing
  'sync-uploads.test.ts', // the sync client's batches of small files: stored, refused one by one, nothing kept of a refusal
  'thumbnails-hostile.test.ts',
  'thumbnails.test.ts',
  'transfer-budget.test.ts',
  'trash-retention.test.ts', // the purge deletes blobs
  'versions.test.ts',
];
const STORAGE_INDEPENDENT_TESTS = [
  'accounts.test.ts',
  'single-sign-on.test.ts', // OpenID Connect against a real provider (oidc-provider): linking, refusals, re-authentication, two nodes
  'activity-names.test.ts', // renames, moves and deletes named in the activity
  'admin.test.ts',
  'analytics.test.ts',
  'changes.test.ts', // the change feed: cursors, pages, the wait, 400 and 410
  'changes-uploads.test.ts', // what uploads, versions and file moves journal (the bytes' hashes are proven by the storage files)
  'changes-trash.test.ts', // Trash, restores and purges in the change feed, and the feed's own retention
  'changes-shares.test.ts', // private shares in their members' feeds, and an owner's account deleted
  'changes-tree.test.ts', // what folder changes, copies and WebDAV's MKCOL, MOVE and COPY write to the feed
  'app-password-policy.test.ts',
  'app-passwords.test.ts',
  'device-sessions.test.ts', // the sync client's session from an app password, ended with it
  'passkeys.test.ts', // passkeys: added, renamed, removed, signing in alone and as the second factor
  'sync-tree.test.ts', // the sync client's whole-tree listing: live items, shares, cursor
  'billing.test.ts',
  'dav-bounds.test.ts', // properties and locks
  'dav-checksums.test.ts', // contentHash in listings, oc:checksums and folder ETags
  'early-answers.test.ts',
  'email-verification.test.ts',
  'file-name-search.test.ts',
  'file-private-shares.test.ts', // a file shared with a person: the recipient's reads and the owner's list
  'folders.test.ts',
  'share-roles.test.ts', // viewers and editors of shared folders through the API, Trash, leaving, activity
  'http.test.ts',
  'jobs-postgres.test.ts',
  'jobs.test.ts',
  'json-listing.test.ts',
  'limit-keys.test.ts',
  'listing-sort.test.ts',
  'mail-queue.test.ts',
  'names.test.ts', // names and their keys in the database, whichever way they come in
  'password-recovery.test.ts',
  'plan-change-preview.test.ts',
  'resumable-uploads-locks.test.ts', // the upload locker on the database and Redis
  'several-nodes.test.ts',
  'shared-limits.test.ts',
  'starred.test.ts', // stars and the starred mark of the listings
  'recent.test.ts', // opens remembered, changes and the files of Recent
  'stripe-webhooks.test.ts',
  'tree-races.test.ts',
  'trust-proxy.test.ts',
];

/** Fails loudly when an integration file is in neither list, in both, or listed but gone. */
function checkIntegrationLists(): void {
  const onDisk = readdirSync(new URL(`./${INTEGRATION_TESTS}`, import.meta.url)).filter((name) => name.endsWith('.test.ts'));
  const listed = [...STORAGE_TESTS, ...STORAGE_INDEPENDENT_TESTS];
  const problems = [
    ...onDisk.filter((name) => !listed.includes(name)).map((name) => `${name} is in neither STORAGE_TESTS nor STORAGE_INDEPENDENT_TESTS`),
    ...listed.filter((name, index) => listed.indexOf(name) !== index).map((name) => `${name} is listed twice`),
    ...listed.filter((name) => !onDisk.includes(name)).map((name) => `${name} is listed but not in ${INTEGRATION_TESTS}`),
  ];
  if (problems.length > 0) throw new Error(`vitest.config.ts: ${problems.join('; ')}`);
}
checkIntegrationLists();

/**
 * The integration files this run collects. TEST_FILES=storage (npm test's S3 and portable
 * phases) takes the storage files only. Files that only bite in one of the runs are left out
 * of the others (not skipped: a skipped test fails CI).
 */
function integrationFiles(): { include: string[]; exclude: string[] } {
  const env = process.env;
  const include = (env.TEST_FILES === 'storage' ? STORAGE_TESTS : ['**']).map(
    (name) => `${INTEGRATION_TESTS}/${name === '**' ? '*.test.ts' : name}`,
  );
  const excluded: string[] = [];
  // The tree races line up their interleaving with PostgreSQL row locks, and several nodes
  // on one database need PostgreSQL: SQLite runs one writer at a time, so there they could
  // never fail.
  if (env.TEST_DB !== 'postgres') excluded.push('tree-races.test.ts', 'jobs-postgres.test.ts');
  // Early answers are about sockets, not the database or the store: their hundred rounds
  // (about a minute) run once, in the first run (SQLite, local disk, native addon).
  const firstRun = env.TEST_DB === 'sqlite' && env.TEST_STORAGE !== 's3' && env.CLOUDVAULT_NATIVE !== '0';
  if (!firstRun) excluded.push('early-answers.test.ts');
  // litmus, rclone and cadaver check the protocol against real clients (two minutes, a
  // 100 MB file): once, in the first run; the rules they rest on are dav.test.ts's, run everywhere.
  if (!firstRun) excluded.push('dav-litmus.test.ts', 'dav-rclone.test.ts', 'dav-cadaver.test.ts');
  return { include, exclude: excluded.map((name) => `${INTEGRATION_TESTS}/${name}`) };
}

/**
 * One worker per core. Vitest's default leaves a core free (cores - 1), which on CI's two
 * cores runs one file at a time while the test and its server use about one core between them.
 */
const WORKERS = availableParallelism();

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    projects: [
      {
        // The web app's i18n imports en.json through this plugin (all of it, under test).
        plugins: [englishSections([])],
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}'],
          // A few unit tests run real processes and sockets (run-tool, direct-socket): at a load
          // of 20 on CI's two cores they passed Vitest's default 5 s while working as they should.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: integrationFiles().include,
          exclude: [...configDefaults.exclude, ...integrationFiles().exclude],
          // Migrates once for the run: each test server starts from a copy (test-database.ts);
          // the server process tests' bundle is built if stale (server-process.ts).
          globalSetup: [SERVER_BUNDLE_SETUP, 'apps/server/test/helpers/migrated-schema-setup.ts'],
          // The S3 run shares the machine with the browser tests: its zips of large folders
          // have taken over 30 s there on a slow day, so a test has a minute before it fails.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Each file builds its own server (its own registry, pools and data), so nothing of
          // one file's modules can reach the next; not isolating saves each file the server's
          // module graph (about 3 s of a core: 19.8 s against 3.7 s for six files).
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file has its own server, data and Chromium; a page's work is mostly one
          // renderer thread, so two files side by side use both cores.
          fileParallelism: true,
        },
      },
      {
        test: {
          name: 'faults',
          include: [`${FAULT_TESTS}/*.test.ts`],
          globalSetup: [SERVER_BUNDLE_SETUP, 'apps/server/test/helpers/migrated-schema-setup.ts'],
          fileParallelism: false,
          // Emptying a Trash of 3,000 files three times over, with kills and restarts, took
          // over 180 s beside the browser tests on a slow day (68 s alone).
          testTimeout: 300_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          // The sync client (apps/sync) against a real server: the command journeys and the
          // randomized model test with faults (kills, restarts, cut connections).
          name: 'sync',
          include: ['apps/sync/test/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          globalSetup: [SERVER_BUNDLE_SETUP, 'apps/sync/test/client-bundle-setup.mjs', 'apps/server/test/helpers/migrated-schema-setup.ts'],
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
