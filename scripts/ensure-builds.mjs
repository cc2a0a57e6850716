// Builds what `npm start` runs when it is missing or older than its sources: the web app
// (Vite) and the server (one esbuild bundle run by plain Node: no TypeScript compiler in
// the running process, which saves about 35 MB of memory).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUNDLE = path.join(root, 'apps/server/dist/main.mjs');
// Node's flags for the server process. A 1 MiB semi-space (V8's default grows to 16 MiB)
// collects the young generation, and with it the 64 KiB socket buffers a transfer leaves
// behind, about 16 times as often: 36 MB less RSS after start-up and 60-70 MB less at the
// peak of a 1 GiB upload (bench/README.md, "Memory").
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=1'];

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
  const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/vite-plugins', 'apps/web/package.json', 'packages/contract/src'];
  if (!isStale(path.join(root, 'apps/web/dist/index.html'), sources)) return;
  console.log('Building the web app…');
  const result = spawnSync('npm', ['run', 'build', '-w', '@cloudvault/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('The web app build failed');
}

export async function ensureServerBuild() {
  const sources = ['apps/server/src', 'apps/server/package.json', 'packages/contract/src'];
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
    // Our TypeScript (server and contract) is bundled; npm packages and the native addon load from node_modules.
    external: Object.keys(dependencies).filter((name) => name !== '@cloudvault/contract').flatMap((name) => [name, `${name}/*`]),
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureWebBuild();
  await ensureServerBuild();
}
