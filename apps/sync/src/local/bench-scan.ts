/**
 * Measures the scan on a generated tree: `node src/local/bench-scan.ts DIR make` writes
 * 100,000 small files in 1,000 folders under DIR; `node src/local/bench-scan.ts DIR` hashes DIR once
 * (the first pass), keeps what it saw as the journal would (in DIR's sibling `DIR.base.json`),
 * then `node src/local/bench-scan.ts DIR unchanged` scans the unchanged tree against it three
 * times in a process holding only that base, as a pass does, and prints each scan's wall and
 * CPU time and the process's peak memory.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { BaseEntry } from '../model.ts';
import { loadIgnoreRules } from './ignore-rules.ts';
import { openLocalNames } from './names.ts';
import { scanLocal } from './scan.ts';

const [root, mode = 'first'] = process.argv.slice(2);
if (!root) throw new Error('Usage: node src/local/bench-scan.ts DIR [make|first|unchanged]');
const baseFile = `${root}.base.json`;
const names = openLocalNames(root, new Database(':memory:'), 'linux');
const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

if (mode === 'make') {
  for (let folder = 0; folder < 1000; folder += 1) {
    const dir = `${root}/top${folder % 20}/folder${folder}`;
    mkdirSync(dir, { recursive: true });
    for (let file = 0; file < 100; file += 1) writeFileSync(`${dir}/file-${file}.txt`, `content ${folder} ${file}\n`);
  }
} else if (mode === 'first') {
  const started = performance.now();
  const first = await scanLocal(root, { ignore: await loadIgnoreRules(root), names, previous: () => undefined });
  console.log(`first scan, every file hashed: ${first.entries.size} entries in ${Math.round(performance.now() - started)} ms`);
  writeFileSync(baseFile, JSON.stringify([...first.entries.values()].map((entry) => ({ ...entry, remoteId: 'r' }))));
} else {
  const base = new Map((JSON.parse(readFileSync(baseFile, 'utf8')) as BaseEntry[]).map((entry) => [entry.path, entry]));
  console.log(`base loaded: ${base.size} entries, RSS ${mb(process.memoryUsage().rss)}`);
  for (let round = 0; round < 3; round += 1) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const scan = await scanLocal(root, { ignore: await loadIgnoreRules(root), names, previous: (p) => base.get(p) });
    const used = process.cpuUsage(cpu);
    console.log(
      `unchanged scan: ${scan.entries.size} entries in ${Math.round(performance.now() - started)} ms (CPU ${Math.round((used.user + used.system) / 1000)} ms)`,
    );
  }
  console.log(`peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}, heap used now ${mb(process.memoryUsage().heapUsed)}`);
}
