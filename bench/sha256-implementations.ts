/**
 * `npm run bench:sha256`: the sha256 implementations an upload could hash with, each over
 * the same 1 GiB from memory (64 MiB of random bytes, 16 times, in 1 MiB updates, as the
 * hashing stream batches them), in MB/s of one core, best of three. Checks every digest
 * against node:crypto's. BENCH_QUICK=1 hashes 128 MiB.
 */
import { createHash, randomFillSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { nativeAddon } from '../apps/server/src/lib/native-addon.ts';

const MiB = 1024 * 1024;
const total = process.env.BENCH_QUICK === '1' ? 128 * MiB : 1024 * MiB;
const source = randomFillSync(Buffer.allocUnsafe(64 * MiB));
const chunks = Array.from({ length: source.length / MiB }, (_, index) => source.subarray(index * MiB, (index + 1) * MiB));
const passes = total / source.length;

interface Implementation {
  name: string;
  /** The hex digest of `passes` times the source, in 1 MiB updates. */
  hash(): Promise<string>;
}

const nodeCrypto: Implementation = {
  name: 'node:crypto createHash (OpenSSL EVP), main thread',
  hash: async () => {
    const hash = createHash('sha256');
    for (let pass = 0; pass < passes; pass++) for (const chunk of chunks) hash.update(chunk);
    return hash.digest('hex');
  },
};

/** The addon's hasher as the upload path calls it: 1 MiB per trip to the thread pool, one at a time. */
function addonImplementation(): Implementation | null {
  const addon = nativeAddon();
  const { createHasher, updateHasher, digestHasher } = addon;
  if (!createHasher || !updateHasher || !digestHasher) return null;
  return {
    name: 'native addon (OpenSSL SHA256_CTX), thread pool, 1 MiB per job',
    hash: async () => {
      const hasher = createHasher();
      for (let pass = 0; pass < passes; pass++) {
        for (const chunk of chunks)
          await new Promise<void>((resolve, reject) => updateHasher(hasher, [chunk], (error) => (error ? reject(error) : resolve())));
      }
      return digestHasher(hasher);
    },
  };
}

const cpuinfo = await readFile('/proc/cpuinfo', 'utf8').catch(() => '');
const implementations = [nodeCrypto, addonImplementation()].filter((candidate): candidate is Implementation => candidate !== null);
const expected = await nodeCrypto.hash();
console.log(
  `sha256 of ${total / MiB} MiB from memory; CPU has SHA-NI: ${/\bsha_ni\b/.test(cpuinfo) ? 'yes' : 'no'}; load ${(await readFile('/proc/loadavg', 'utf8')).split(' ')[0]}`,
);
for (const implementation of implementations) {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    const digest = await implementation.hash();
    best = Math.min(best, performance.now() - started);
    if (digest !== expected) throw new Error(`${implementation.name}: digest ${digest}, node:crypto ${expected}`);
  }
  console.log(`${implementation.name.padEnd(62)} ${(total / 1e6 / (best / 1000)).toFixed(0).padStart(6)} MB/s`);
}
