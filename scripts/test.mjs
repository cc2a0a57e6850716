// `npm test`: lint and type checks, unit, integration (SQLite; S3; PostgreSQL on the portable paths) and browser
// tests, with the cluster and the faults beside them, each reported, ending with a summary of each phase's wall time. A level that cannot run here
// is skipped loudly with how to enable it; REQUIRE_POSTGRES=1 / REQUIRE_CLUSTER=1 /
// REQUIRE_BROWSER=1 turn such a skip into a failure, and under CI a skipped test is a failure too.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServerBuild, ensureSyncClientBuild, ensureWebBuild } from './ensure-builds.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const artifacts = path.join(root, '.test-artifacts');
rmSync(artifacts, { recursive: true, force: true });
mkdirSync(artifacts, { recursive: true });

const env = process.env;
const chromium = env.CHROMIUM_PATH || '/usr/bin/chromium';
// Where the cluster tests find haproxy and Redis (apps/server/test/helpers/haproxy.ts, test-redis.ts).
const haproxy = env.HAPROXY_PATH || '/usr/sbin/haproxy';
const redisUrl = env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const phases = [];
const totals = { passed: 0, failed: 0, skipped: 0 };
const started = performance.now();
/** Wall time since `since`, as the summary prints it: 4m07s. */
function elapsed(since) {
  const seconds = Math.round((performance.now() - since) / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

function banner(text) {
  console.log(`\n━━━ ${text} ${'━'.repeat(Math.max(0, 70 - text.length))}`);
}

/**
 * Commands that each use one core, run side by side (eslint and tsc are single-threaded);
 * each one's output is printed whole once all are done, so it reads as if run in turn.
 */
async function runCommandsTogether(commands) {
  const start = performance.now();
  const results = await Promise.all(
    commands.map(
      ({ name, command, args }) =>
        new Promise((resolve) => {
          const child = spawn(command, args, { cwd: root, env });
          let output = '';
          child.stdout.on('data', (chunk) => (output += chunk));
          child.stderr.on('data', (chunk) => (output += chunk));
          child.on('close', (code) => resolve({ name, code, output }));
        }),
    ),
  );
  const time = elapsed(start);
  for (const { name, code, output } of results) {
    banner(name);
    process.stdout.write(output);
    phases.push({ name, status: code === 0 ? 'passed' : 'FAILED', time: `${time}*` });
  }
}

/**
 * Runs one Vitest project as a phase. In the foreground its output streams as it comes; in
 * the background (beside the foreground phases) it is kept, written to .test-artifacts and
 * printed whole when the phase ends, so two phases' lines never interleave.
 */
async function runVitest(name, project, extraEnv = {}, { background = false, workers } = {}) {
  const slug = name.replace(/\W+/g, '-');
  const report = path.join(artifacts, `${slug}.json`);
  if (background) console.log(`\n(${name} runs in the background; its output follows when it ends)`);
  else banner(name);
  const start = performance.now();
  const args = ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  if (workers) args.push(`--maxWorkers=${workers}`);
  // Piped in both cases (kept for the failure digest); in the foreground also passed through as it comes.
  const child = spawn('npx', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, ...extraEnv, FORCE_COLOR: '1' } });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
    if (!background) process.stdout.write(chunk);
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
    if (!background) process.stderr.write(chunk);
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  const time = elapsed(start);
  writeFileSync(path.join(artifacts, `${slug}.log`), output);
  if (background) {
    banner(`${name} (ran in the background)`);
    process.stdout.write(output);
  }
  let counts = { passed: 0, failed: 0, skipped: 0 };
  let files = 0;
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    files = json.testResults.length;
    counts = {
      passed: json.numPassedTests,
      failed: json.numFailedTests,
      skipped: json.numPendingTests + json.numTodoTests,
    };
  }
  for (const key of Object.keys(totals)) totals[key] += counts[key];
  let status = code === 0 && counts.passed > 0 ? 'passed' : 'FAILED';
  if (status === 'passed' && counts.skipped > 0 && env.CI) status = 'FAILED (tests skipped under CI)';
  const why = status === 'FAILED' ? failureDigest(output, code) : undefined;
  phases.push({ name, status, counts, files, time: background ? `${time}+` : time, why });
}

/**
 * Why a Vitest run failed, in a few lines: the error lines (no stack frames) of its "Failed
 * Tests", "Failed Suites" and "Unhandled Errors" sections. Printed after the summary, as CI
 * shows the end of the log: a run whose every test passed can still fail (an unhandled
 * rejection, a hook), and its reason sits far above the summary otherwise.
 */
function failureDigest(output, code) {
  // eslint-disable-next-line no-control-regex -- the colour codes Vitest writes under FORCE_COLOR
  const lines = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const start = lines.findIndex((line) => /⎯{3,}.*(Failed|Unhandled|Errors?)\b/.test(line));
  const reasons =
    start < 0 ? lines.slice(-15) : lines.slice(start).filter((line) => line.trim() && !/^\s*(at |❯ (node_modules|node:))/.test(line));
  return [`exit code ${code}`, ...reasons.slice(0, 25)];
}

/** Whether Redis at `url` answers PING within a few seconds. */
function redisAnswers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.createConnection({ host: hostname, port: Number(port || 6379) }, () => socket.write('PING\r\n'));
    socket.setTimeout(3000, () => socket.destroy());
    socket.once('data', (data) => {
      resolve(data.toString().startsWith('+PONG'));
      socket.destroy();
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}

function skip(name, reason, howToEnable, requiredBy) {
  banner(name);
  const required = env[requiredBy] === '1';
  console.log(`${required ? 'FAILED' : 'SKIPPED'}: ${reason}`);
  console.log(`  To run it: ${howToEnable}`);
  if (required) console.log(`  ${requiredBy}=1 is set, so this skip is a failure.`);
  phases.push({ name, status: required ? `FAILED (${requiredBy}=1)` : 'SKIPPED — see above' });
}

await runCommandsTogether([
  { name: 'lint', command: 'npm', args: ['run', 'lint', '--silent'] },
  { name: 'type check', command: 'npm', args: ['run', 'typecheck', '--silent'] },
]);
await runVitest('unit', 'unit');

const clusterPhase = 'cluster (PostgreSQL, S3, Redis, haproxy)';
const faultsPhase = 'faults (full disk, failing store, restarts, slow clients, kills)';
const syncPhase = 'sync client (randomized, journeys)';
const clusterMissing = [
  ...(env.TEST_DATABASE_URL ? [] : ['TEST_DATABASE_URL is not set']),
  ...(existsSync(haproxy) ? [] : [`no haproxy at ${haproxy}`]),
  ...((await redisAnswers(redisUrl)) ? [] : [`no Redis answers at ${redisUrl}`]),
];
const browserFound = existsSync(chromium);
// What the cluster, the browser and the server process tests (faults, shutdown) run is the
// bundle `npm start` runs: built once, up front, before two phases at once could each find it stale.
let buildError;
try {
  if (browserFound) ensureWebBuild();
  await ensureServerBuild();
  await ensureSyncClientBuild();
} catch (error) {
  console.error(error.message);
  buildError = error;
}

/**
 * The cluster and the faults spend most of their time waiting (for a cron minute, a restart,
 * a lease, a killed process), so they run one after the other in the background, beside the
 * integration and browser phases. Nothing they do reaches the others: each cluster and fault
 * server has a database, Redis database and store of its own, and the PostgreSQL and Redis
 * the faults stop are private instances they start.
 */
async function backgroundPhases() {
  // Two server processes behind haproxy on one PostgreSQL database, one S3 store and Redis.
  if (clusterMissing.length > 0) {
    skip(
      clusterPhase,
      `${clusterMissing.join('; ')}.`,
      'apt-get install -y haproxy redis-server; redis-server --daemonize yes --port 6379 --save ""; TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test (or npm run test:cluster)',
      'REQUIRE_CLUSTER',
    );
  } else if (buildError) {
    phases.push({ name: clusterPhase, status: 'FAILED (server build)' });
  } else {
    await runVitest(clusterPhase, 'cluster', {}, { background: true });
  }
  // Faults caused for real: a full disk, a failing store, PostgreSQL and Redis restarted, kills.
  if (env.TEST_DATABASE_URL) {
    await runVitest(faultsPhase, 'faults', { TEST_DB: 'postgres' }, { background: true });
  } else {
    skip(
      faultsPhase,
      'TEST_DATABASE_URL is not set.',
      'TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test (or npm run test:faults)',
      'REQUIRE_POSTGRES',
    );
  }
  // The sync client against a real server process (SQLite, local disk): its command journeys
  // and the randomized model test, which kill clients and the server and cut connections.
  if (buildError) phases.push({ name: syncPhase, status: 'FAILED (server build)' });
  else await runVitest(syncPhase, 'sync', { TEST_DB: 'sqlite' }, { background: true });
}
const background = backgroundPhases();

// The storage files (vitest.config.ts's STORAGE_TESTS) with every byte in an S3-protocol
// store (s3rver, started by the tests); the other files prove nothing more there. On one
// worker in the background from here, beside the other integration phases, so that it is
// done before the browser tests are far along: the browser phase is the run's tail, and
// what runs beside it lengthens the whole run.
const s3Phase = runVitest(
  'integration (SQLite, S3 storage)',
  'integration',
  { TEST_DB: 'sqlite', TEST_STORAGE: 's3', TEST_FILES: 'storage' },
  { background: true, workers: 1 },
);
await runVitest('integration (SQLite)', 'integration', { TEST_DB: 'sqlite' });
// The native addon's paths (sendfile, the zip's member reads) run on SQLite above; PostgreSQL
// runs every file on the portable paths a build without the addon takes. What the addon
// changes is how bytes move, never what the database holds, so each pairing is needed once.
if (env.TEST_DATABASE_URL) {
  await runVitest('integration (PostgreSQL, portable paths)', 'integration', { TEST_DB: 'postgres', CLOUDVAULT_NATIVE: '0' });
} else {
  await runVitest('integration (SQLite, portable paths)', 'integration', {
    TEST_DB: 'sqlite',
    CLOUDVAULT_NATIVE: '0',
    TEST_FILES: 'storage',
  });
  skip(
    'integration (PostgreSQL)',
    'TEST_DATABASE_URL is not set.',
    'TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test (each test server makes and drops its own database)',
    'REQUIRE_POSTGRES',
  );
}

if (!browserFound) {
  skip(
    'end-to-end (Chromium)',
    `no Chromium at ${chromium}.`,
    'apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)',
    'REQUIRE_BROWSER',
  );
} else if (buildError) {
  phases.push({ name: 'end-to-end (Chromium)', status: 'FAILED (build)' });
} else {
  await runVitest('end-to-end (Chromium)', 'e2e', { CHROMIUM_PATH: chromium });
}
await s3Phase;
await background;

banner('summary');
// Each phase's wall time, so a phase that grows is seen the day it does (CI has 20 minutes, .ci/run).
for (const phase of phases) {
  const counts = phase.counts
    ? ` (${phase.files} files; ${phase.counts.passed} passed, ${phase.counts.failed} failed, ${phase.counts.skipped} skipped)`
    : '';
  console.log(`${phase.status.padEnd(34)} ${(phase.time ?? '').padStart(7)}  ${phase.name}${counts}`);
}
const failed = phases.some((phase) => phase.status.startsWith('FAILED'));
console.log('* ran side by side: the time is of them together. + ran in the background, beside the phases around it.');
console.log(`\nTotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped, in ${elapsed(started)}`);
// CI's budget for a clean clone (npm ci included) on a 2-core machine; a run past it is a
// warning, not a failure, as a shared machine's load moves it by minutes.
const CI_BUDGET_MINUTES = 20;
if ((performance.now() - started) / 60_000 > CI_BUDGET_MINUTES) {
  console.log(`Warning: over CI's ${CI_BUDGET_MINUTES}-minute budget; the phase times above show where it went.`);
}
for (const phase of phases.filter((entry) => entry.why)) {
  console.log(`\nWhy "${phase.name}" failed (the whole output is above, and in .test-artifacts):`);
  for (const line of phase.why) console.log(`  ${line}`);
}
process.exit(failed ? 1 : 0);
