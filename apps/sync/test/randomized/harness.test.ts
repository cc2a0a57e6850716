import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { runScenario } from './scenario.ts';

const IDLE_CLIENT = fileURLToPath(new URL('./idle-client.mjs', import.meta.url));

test('the checks catch a client that syncs nothing: the trees differ, and contents it said it synced (exit 0) are lost once deleted on disk', async () => {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-sync-harness-'));
  try {
    const report = await runScenario({ seed: 7, ops: 40, workDir, faults: false, cli: IDLE_CLIENT });
    expect(report.problems[0]).toMatch(/^\(a\) the sides did not converge/);
    expect(report.problems.some((line) => /^ {2}file .* on (alpha|beta), not on server$/.test(line))).toBe(true);
    expect(report.problems.some((line) => line.startsWith('(b) lost: content'))).toBe(true);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
});
