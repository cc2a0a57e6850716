/**
 * `npm run bench:web`: the web delivery figures alone (the Lighthouse
 * performance scenario of `npm run bench`, without the transfer scenarios): builds what is
 * stale, starts our server on 127.0.0.1 with a temp DATA_DIR, prints each page's score
 * and the first visit's gzipped JavaScript against their targets, with the load average.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lighthousePerformance } from './scenarios/lighthouse-performance.ts';
import { startOurServer } from './servers/ours.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const tempRoot = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-bench-web-'));
const ours = await startOurServer(repoRoot, tempRoot).catch(async (error: unknown) => {
  await rm(tempRoot, { recursive: true, force: true });
  throw error;
});
try {
  process.stderr.write(
    `[bench:web] ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')} at start\n`,
  );
  const result = await lighthousePerformance(ours.url, tempRoot, 60_000);
  for (const target of result.targets ?? [])
    process.stdout.write(`${target.met ? 'PASS' : 'MISS'} ${target.description}: ${target.measured}\n`);
  process.stdout.write(`\nNotes:\n${result.notes.map((note) => `  ${note}`).join('\n')}\n`);
} finally {
  await ours.stop();
  await rm(tempRoot, { recursive: true, force: true });
}
