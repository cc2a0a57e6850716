/**
 * The least a Node client can do to download a file: one node:http GET, each chunk written
 * as it comes, an fsync at the end; no hash, no journal, no listing. Its process's wall time
 * is the floor under `cloudvault sync`'s download in the large-file scenario, the bar's
 * ceiling (curl) being out of reach of any Node process where it is below that floor.
 * Usage: node node-download-floor.mjs URL TOKEN OUTPUT_FILE
 */
import http from 'node:http';
import { open } from 'node:fs/promises';

const [url, token, output] = process.argv.slice(2);
const answer = await new Promise((resolve, reject) =>
  http.get(url, { headers: { authorization: `Bearer ${token}` } }, resolve).on('error', reject),
);
if (answer.statusCode !== 200) throw new Error(`GET answered ${answer.statusCode}`);
const file = await open(output, 'w');
for await (const chunk of answer) await file.write(chunk);
await file.sync();
await file.close();
