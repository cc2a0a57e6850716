import { writeFile } from 'node:fs/promises';
import { readMemory } from '../lib/processes.ts';

/**
 * Runs `work` and answers the server's peak resident memory meanwhile, in MiB above its
 * resident memory before: writing 5 to /proc/<pid>/clear_refs resets VmHWM to the
 * current RSS (Linux 4.0+), so each size of a series gets a peak of its own.
 */
export async function peakDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakRssMiB: number; peakMiB: number }> {
  await writeFile(`/proc/${pid}/clear_refs`, '5');
  const before = await readMemory(pid);
  const result = await work();
  const after = await readMemory(pid);
  if (!before || !after) throw new Error(`the server (PID ${pid}) is gone`);
  const MiB = 1024 * 1024;
  return { result, peakRssMiB: Math.max(0, after.peakBytes - before.rssBytes) / MiB, peakMiB: after.peakBytes / MiB };
}
