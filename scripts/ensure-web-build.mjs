// Builds the web app when its build is missing or older than any of its sources
// (or the shared contract), so `npm start` always serves what the tree holds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'apps/web/dist/index.html');
const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/package.json', 'packages/contract/src'];

function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, entry) => Math.max(newest, newestChange(path.join(target, entry))), stat.mtimeMs);
}

export function ensureWebBuild() {
  const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
  const changedAt = Math.max(...sources.map((source) => newestChange(path.join(root, source))));
  if (builtAt > changedAt) return;
  console.log(builtAt ? 'Web app sources changed: rebuilding…' : 'Building the web app…');
  const result = spawnSync('npm', ['run', 'build', '-w', '@cloudvault/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('The web app build failed');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureWebBuild();
