import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createFolder } from '../lib/cloudvault-api.ts';
import { type Download, type KeptAliveGetter, keptAliveGetter } from '../lib/fast-get.ts';
import { request } from '../lib/http-client.ts';
import type { ServerName } from '../servers/server.ts';
import { interleave, latencyFigures, type ScenarioContext, type ScenarioResult } from './scenario.ts';

const newId = () => randomBytes(16).toString('base64url');

/**
 * Fills the folder with rows written straight into the server's SQLite database (WAL, so
 * the running server sees them on its next read): 10,000 uploads would take minutes and
 * measure uploads, not listing. Each row is valid for the files table (unique id and
 * blob_key, live, owned by the user); no blob exists behind them. storage_used is adjusted
 * only with `countInStorage` (a listing does not read it; emptying Trash does). Answers the
 * rows' total size.
 */
export function insertRows(
  dataDir: string,
  userId: string,
  folderId: string,
  count: number,
  options: { countInStorage?: boolean } = {},
): number {
  const db = new Database(path.join(dataDir, 'cloudvault.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const insert = db.prepare(
      // The names are ASCII, so their key (contract nameKey) is lower(name).
      `INSERT INTO files (id, user_id, folder_id, name, name_key, mimetype, category, size, sha256, crc32, blob_key, created_at, updated_at, deleted_at, trashed_root)
       VALUES (?, ?, ?, ?, lower(?), 'text/plain', 'document', ?, ?, 0, ?, ?, ?, NULL, 0)`,
    );
    const now = new Date().toISOString();
    let totalBytes = 0;
    db.transaction(() => {
      for (let index = 1; index <= count; index++) {
        const name = `listed-${String(index).padStart(5, '0')}.txt`;
        insert.run(newId(), userId, folderId, name, name, 1000 + index, randomBytes(32).toString('hex'), newId(), now, now);
        totalBytes += 1000 + index;
      }
      if (options.countInStorage) db.prepare('UPDATE users SET storage_used = storage_used + ? WHERE id = ?').run(totalBytes, userId);
    })();
    return totalBytes;
  } finally {
    db.close();
  }
}

/** The figure of listings that each follow a change to the database. */
export const AFTER_A_WRITE = 'ours, after a write' satisfies ServerName;

/**
 * A second connection that changes another folder's row before each listing: a commit by
 * another connection moves SQLite's data_version, so the server builds the answer again.
 */
function writeBetweenListings(dataDir: string, userId: string, folderId: string) {
  const db = new Database(path.join(dataDir, 'cloudvault.sqlite'));
  db.pragma('busy_timeout = 5000');
  const touch = db.prepare('UPDATE folders SET updated_at = ? WHERE id = ? AND user_id = ?');
  let tick = 0;
  return {
    touch: () => {
      const changed = touch.run(new Date(Date.UTC(2026, 0, 1) + ++tick).toISOString(), folderId, userId).changes;
      if (changed !== 1) throw new Error(`the folder to touch was not found (${changed} rows changed)`);
    },
    close: () => db.close(),
  };
}

/** Sequential GETs of one folder's listing; the ceilings serve our own answer as a static file. */
export async function listing(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { listingFileCount: count, listingRequests, listingWarmup } = ctx.config;
  const folderId = await createFolder(ctx.client, 'listing-bench');
  insertRows(ctx.ours.dataDir, ctx.client.userId, folderId, count);

  const first = await request(`${ctx.client.url}/api/files?folderId=${folderId}`, {
    headers: { authorization: `Bearer ${ctx.client.token}` },
    keepText: true,
    idleTimeoutMs: ctx.config.idleTimeoutMs,
  });
  const listed = first.status === 200 ? (JSON.parse(first.text).files as unknown[]).length : -1;
  if (listed !== count) throw new Error(`GET /api/files?folderId= answered ${first.status} with ${listed} files, expected ${count}`);
  const staticName = 'listing.json';
  await writeFile(path.join(ctx.fixtures.filesDir, staticName), first.text);

  // Each series reads through its own kept-alive connection with one reused buffer: with
  // node:http as the client, its per-read buffers and collections set the p99 of every server.
  const series = async (get: (client: KeptAliveGetter) => Promise<Download>) => {
    const client = keptAliveGetter(ctx.config.idleTimeoutMs);
    try {
      const latencies: number[] = [];
      for (let index = 0; index < listingWarmup + listingRequests; index++) {
        const response = await get(client);
        if (response.status !== 200 || response.bytes !== first.bytes)
          throw new Error(`answered ${response.status} with ${response.bytes} bytes`);
        if (index >= listingWarmup) latencies.push(response.ms);
      }
      return latencies;
    } finally {
      client.close();
    }
  };
  const listOurs = (client: KeptAliveGetter) =>
    client.get(`${ctx.client.url}/api/files?folderId=${folderId}`, { authorization: `Bearer ${ctx.client.token}` });
  const writer = writeBetweenListings(ctx.ours.dataDir, ctx.client.userId, await createFolder(ctx.client, 'listing-bench-touched'));
  const outcomes = await interleave(1, [
    { server: 'ours', run: () => series(listOurs) },
    {
      server: AFTER_A_WRITE,
      run: () =>
        series((client) => {
          writer.touch();
          return listOurs(client);
        }),
    },
    ...ctx.ceilings.map((ceiling) => ({
      server: ceiling.name,
      run: () => series((client) => client.get(ceiling.fileUrl(staticName), {})),
    })),
  ]).finally(() => writer.close());
  return {
    id: 'listing',
    title: `Listing a folder of ${count.toLocaleString('en')} files (${listingRequests} sequential requests)`,
    compares: 'p99Ms',
    figures: latencyFigures(outcomes),
    notes: [
      `The folder's ${count.toLocaleString('en')} rows were inserted directly into SQLite (valid rows, no blobs behind them), not uploaded.`,
      `"${AFTER_A_WRITE}": before each (untimed), another folder of the user is changed through a second SQLite connection, so no answer comes from the server's listing cache (decision 0034): what a listing costs when the database has just changed.`,
      `${(first.bytes / 1e6).toFixed(1)} MB of JSON per answer; the ceilings serve that same answer as a static file (the cost of moving the bytes alone).`,
      `${listingWarmup} warm-up requests per server are not counted; each series reads on one kept-alive connection into one reused buffer (lib/fast-get.ts), the same client for every server.`,
    ],
  };
}
