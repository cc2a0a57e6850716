import { readFile } from 'node:fs/promises';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these. */
const CLOCK_TICKS = 100;

/** User plus system CPU seconds of a process so far (proc(5): fields 14 and 15 of /proc/<pid>/stat). */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
