// Builds what `npm start` runs when it is missing or older than its sources: the web app
// (Vite) and the server (one esbuild bundle run by plain Node: no TypeScript compiler in
// the running process, which saves about 35 MB of memory).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SYNC_CLIENT_BUNDLE, bundleSyncClient } from '../apps/sync/scripts/bundle.mjs';
import { trimSourceMap } from './trim-source-map.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUNDLE = path.join(root, 'apps/server/dist/main.mjs');
// Node's flags for the server process. A 1 MiB semi-space (V8's default grows to 16 MiB)
// collects the young generation, and with it the 64 KiB socket buffers a transfer leaves
// behind, about 16 times as often: 36 MB less RSS after start-up and 60-70 MB less at the
// peak of a 1 GiB upload (bench/README.md, "Memory").
//
// V8 also counts external memory (the upload chunks' ArrayBuffers) in its global limit
// instead of adding what it grew by since the last full collection to the old generation:
// there, the 10-12 MB of chunks in flight in each tus PATCH (none between two) passed the
// old generation's few MB of headroom and started a full collection per PATCH, up to 16
// per GiB and 0.3-0.6 s of CPU (docs/decisions/0025-resumable-uploads.md, "V8's flag"). Newer
// V8 made this the default and dropped the flag, older V8 lacks it: passed where V8 has it.
const EXTERNAL_MEMORY_IN_GLOBAL_LIMIT = '--external-memory-accounted-in-global-limit';
export const SERVER_NODE_FLAGS = [
  '--max-semi-space-size=1',
  ...(v8Knows(EXTERNAL_MEMORY_IN_GLOBAL_LIMIT) ? [EXTERNAL_MEMORY_IN_GLOBAL_LIMIT] : []),
];

/** Whether this Node's V8 has `flag` (about 10 ms: `--v8-options` only lists them). */
function v8Knows(flag) {
  const { stdout } = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
  return stdout.includes(`${flag} `);
}
const BUNDLED_PACKAGES = new Set(['@cloudvault/contract', 'typebox', 'kysely']);

function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, entry) => Math.max(newest, newestChange(path.join(target, entry))), stat.mtimeMs);
}

function isStale(output, sources) {
  const builtAt = existsSync(output) ? statSync(output).mtimeMs : 0;
  return builtAt <= Math.max(...sources.map((source) => newestChange(path.join(root, source))));
}

export function ensureWebBuild() {
  const sources = [
    'apps/web/src',
    'apps/web/public',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/vite-plugins',
    'apps/web/package.json',
    'packages/contract/src',
  ];
  if (!isStale(path.join(root, 'apps/web/dist/index.html'), sources)) return;
  console.log('Building the web app…');
  const result = spawnSync('npm', ['run', 'build', '-w', '@cloudvault/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('The web app build failed');
}

export async function ensureServerBuild() {
  const sources = [
    'apps/server/src',
    'apps/server/package.json',
    'packages/contract/src',
    'scripts/ensure-builds.mjs',
    'scripts/trim-source-map.mjs',
  ];
  if (!isStale(SERVER_BUNDLE, sources)) return;
  console.log('Building the server…');
  const { dependencies } = JSON.parse(readFileSync(path.join(root, 'apps/server/package.json'), 'utf8'));
  const outdir = path.dirname(SERVER_BUNDLE);
  rmSync(path.join(outdir, 'chunks'), { recursive: true, force: true });
  await build({
    entryPoints: { main: path.join(root, 'apps/server/src/main.ts') },
    outdir,
    outExtension: { '.js': '.mjs' },
    // Modules imported only when configured (S3, Stripe) stay in chunks of their own, with
    // their packages: one bundle would load them all at start-up, some 40 MB of memory.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    // Stack traces need the mappings only (and are mapped by trimSourceMap's lines).
    sourcesContent: false,
    // Our TypeScript (server and contract) is bundled, with the pure-ESM packages only it
    // imports, TypeBox (683 modules) and Kysely (262): loaded as modules of their own they
    // cost 7-8 MB more RSS. Other npm packages and the native addon load from node_modules.
    external: Object.keys(dependencies)
      .filter((name) => !BUNDLED_PACKAGES.has(name))
      .flatMap((name) => [name, `${name}/*`]),
    logLevel: 'warning',
  });
  assertLatin1(outdir);
  for (const entry of readdirSync(outdir, { recursive: true }))
    if (String(entry).endsWith('.map')) trimSourceMap(path.join(outdir, String(entry)));
}

/**
 * V8 keeps a script's source as long as the script lives, in one byte per character only
 * if every character is Latin-1: one arrow in a comment would double the 1.4 MB of the
 * bundle in memory. esbuild escapes strings, not comments nor tagged templates.
 */
function assertLatin1(outdir) {
  for (const entry of readdirSync(outdir, { recursive: true })) {
    if (!String(entry).endsWith('.mjs')) continue;
    const text = readFileSync(path.join(outdir, String(entry)), 'utf8');
    const at = text.search(/[^\t\n\r\u0020-\u00ff]/u);
    if (at === -1) continue;
    const line = text.slice(0, at).split('\n').length;
    // Not left in place, or the next start would take it for an up-to-date build.
    rmSync(SERVER_BUNDLE);
    throw new Error(
      `apps/server/dist/${entry}:${line} has "${text[at]}" (${JSON.stringify(text.slice(at - 40, at + 20))}): write it as an escape or in ASCII in the server's sources (see assertLatin1 in scripts/ensure-builds.mjs)`,
    );
  }
}

/** The cloudvault command's bundle (apps/sync/scripts/bundle.mjs), which its tests and benchmarks run. */
export async function ensureSyncClientBuild() {
  const sources = ['apps/sync/src', 'apps/sync/scripts', 'packages/contract/src'];
  if (!isStale(SYNC_CLIENT_BUNDLE, sources)) return;
  console.log('Building the sync client…');
  await bundleSyncClient();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureWebBuild();
  await ensureServerBuild();
  await ensureSyncClientBuild();
}
