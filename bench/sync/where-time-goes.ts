import { cpuSeconds } from '../changes/process-cpu.ts';
import type { CommandRun } from './cloudvault-cli.ts';

/**
 * Runs one client command and says where its wall time went: the client's CPU (GNU time),
 * the server's CPU (/proc/<pid>/stat around the run) and the rest, waiting on disks or sleeps.
 */
export async function timed(serverPid: number, run: () => Promise<CommandRun>): Promise<{ run: CommandRun; breakdown: string }> {
  const serverBefore = await cpuSeconds(serverPid);
  const result = await run();
  const server = (await cpuSeconds(serverPid)) - serverBefore;
  const client = result.cpuSeconds === null ? '?' : result.cpuSeconds.toFixed(1);
  return { run: result, breakdown: `${(result.ms / 1000).toFixed(1)} s wall, client CPU ${client} s, server CPU ${server.toFixed(1)} s` };
}
