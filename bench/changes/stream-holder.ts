/**
 * The client side of the idle streams scenario (bench/changes/idle-streams.ts), in a process
 * of its own so its sockets and parsing cost nothing to the process that measures the server.
 * Reads a JSON file (argv[2]): `{ url, streams: [{ token, cursor }], inFlight }`. Opens each
 * `GET /api/changes/stream` with raw node:http on an agent without a socket cap, at most
 * `inFlight` not yet connected at a time, and prints `connected <n> <p50 ms> <p99 ms>` (the
 * time from each request to its first bytes) once every one has
 * received the server's first comment. Then holds them until killed; a stream that ends
 * meanwhile is printed as `lost <status>`, a refusal as `failed <status> <body>`.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { percentile } from '../lib/stats.ts';

interface Spec {
  url: string;
  streams: Array<{ token: string; cursor: string }>;
  inFlight: number;
}

const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Spec;
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const connectMs: number[] = [];
let next = 0;

function open(stream: Spec['streams'][number]): Promise<void> {
  return new Promise((resolve, reject) => {
    const sent = performance.now();
    const req = http.get(
      `${spec.url}/api/changes/stream?cursor=${stream.cursor}`,
      { agent, headers: { authorization: `Bearer ${stream.token}` } },
      (res) => {
        if (res.statusCode !== 200) {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.once('end', () => reject(new Error(`failed ${res.statusCode} ${body.slice(0, 200)}`)));
          return;
        }
        res.once('data', () => {
          connectMs.push(performance.now() - sent);
          resolve();
        });
        res.resume();
        res.once('end', () => process.stdout.write(`lost ${res.statusCode}\n`));
      },
    );
    req.once('error', (error) => reject(new Error(`failed ${error.message}`)));
  });
}

async function worker(): Promise<void> {
  while (next < spec.streams.length) {
    const stream = spec.streams[next++]!;
    await open(stream);
  }
}

try {
  await Promise.all(Array.from({ length: spec.inFlight }, worker));
  process.stdout.write(`connected ${connectMs.length} ${percentile(connectMs, 50).toFixed(1)} ${percentile(connectMs, 99).toFixed(1)}\n`);
} catch (error) {
  process.stdout.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
// The open sockets keep the process alive until the benchmark kills it.
