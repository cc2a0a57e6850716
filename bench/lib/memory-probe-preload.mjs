// Loaded into the server by bench/memory-probe.ts (`--import`): samples V8's own figures
// four times a second and, on SIGUSR2, writes those of the sample with the highest RSS to
// MEMORY_PROBE_STATS, so the probe can split the peak into V8's heap, Buffers and the rest.
import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';

const MiB = 1024 * 1024;
const round = (bytes) => Math.round(bytes / MiB);
let highest = { rss: 0 };

function sample() {
  const usage = process.memoryUsage();
  if (usage.rss <= highest.rss) return;
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((space) => [space.space_name, round(space.physical_space_size)]));
  highest = {
    rss: round(usage.rss),
    heapTotal: round(usage.heapTotal),
    heapUsed: round(usage.heapUsed),
    external: round(usage.external),
    arrayBuffers: round(usage.arrayBuffers),
    spaces,
  };
}

setInterval(sample, 250).unref();
process.on('SIGUSR2', () => {
  sample();
  writeFileSync(process.env.MEMORY_PROBE_STATS, JSON.stringify(highest));
  highest = { rss: 0 };
});
