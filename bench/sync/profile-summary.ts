/**
 * `node --import tsx bench/sync/profile-summary.ts FILE.cpuprofile [TOP]`: where a client
 * process's CPU time went (from SYNC_CPU_PROF_DIR, bench/README.md): the profile's span, the
 * time idle (waiting on I/O or the server), and the functions and files with the most self time.
 */
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [file, top = '15'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: profile-summary.ts FILE.cpuprofile [TOP]\n');
  process.exit(2);
}
const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
profile.samples.forEach((id, index) => {
  const frame = byId.get(id)!.callFrame;
  // Each sample's time is the delta to the next one.
  const micros = profile.timeDeltas[index + 1] ?? 0;
  const where = frame.url.replace(/^.*\/(node_modules|apps)\//, '$1/') || '(native)';
  const name = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  byFile.set(where, (byFile.get(where) ?? 0) + micros);
});
const span = (profile.endTime - profile.startTime) / 1000;
const ms = (micros: number) => `${(micros / 1000).toFixed(0).padStart(7)} ms`;
const list = (entries: Map<string, number>) =>
  [...entries]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(top))
    .map(([name, micros]) => `  ${ms(micros)} ${((micros / 1000 / span) * 100).toFixed(1).padStart(5)} %  ${name}`)
    .join('\n');
process.stdout.write(`${file}: ${span.toFixed(0)} ms profiled\nSelf time by function:\n${list(byFunction)}\nBy file:\n${list(byFile)}\n`);
