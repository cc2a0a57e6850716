import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { type CloudVaultClient, createFolder, register } from '../lib/cloudvault-api.ts';
import { request } from '../lib/http-client.ts';
import type { GrowthContext } from './context.ts';
import { peakDuring } from './peak-memory.ts';
import type { GrowthPoint, GrowthSeries } from './series.ts';

const FILE_BYTES = 1000;
const newId = () => randomBytes(16).toString('base64url');

/** `count` rows in the folder, counted in the owner's storage as uploads would be (no blobs: deleting a missing blob is a no-op). */
function fillFolder(dataDir: string, userId: string, folderId: string, count: number): void {
  const db = new Database(path.join(dataDir, 'cloudvault.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const insert = db.prepare(
      `INSERT INTO files (id, user_id, folder_id, name, mimetype, category, size, sha256, crc32, blob_key, created_at, updated_at, deleted_at, trashed_root)
       VALUES (?, ?, ?, ?, 'text/plain', 'document', ?, ?, 0, ?, ?, ?, NULL, 0)`,
    );
    const now = new Date().toISOString();
    db.transaction(() => {
      for (let index = 0; index < count; index++) insert.run(newId(), userId, folderId, `trash-${index}.txt`, FILE_BYTES, 'ef'.repeat(32), newId(), now, now);
      db.prepare('UPDATE users SET storage_used = storage_used + ? WHERE id = ?').run(count * FILE_BYTES, userId);
    })();
  } finally {
    db.close();
  }
}

async function call(client: CloudVaultClient, method: string, route: string) {
  const exchange = await request(`${client.url}${route}`, { method, headers: { authorization: `Bearer ${client.token}` }, keepText: true, idleTimeoutMs: client.idleTimeoutMs });
  if (exchange.status >= 300) throw new Error(`${method} ${route} answered ${exchange.status}: ${exchange.text.slice(0, 200)}`);
  return exchange;
}

const storageUsed = async (client: CloudVaultClient) => JSON.parse((await call(client, 'GET', '/api/user/dashboard')).text).storageInfo.storageUsed as number;

/** Emptying a Trash that holds a folder of growing file counts, on SQLite: time, time per file, peak memory, storage after. */
export async function trashGrowth(ctx: GrowthContext): Promise<GrowthSeries> {
  const { server } = ctx.sqlite;
  const client = await register(server.url, ctx.config.idleTimeoutMs);
  const points: GrowthPoint[] = [];
  for (const size of ctx.config.trashSizes) {
    ctx.log(`trash: emptying ${size.toLocaleString('en')} files`);
    const folderId = await createFolder(client, `growth-trash-${size}`);
    fillFolder(server.dataDir, client.userId, folderId, size);
    if ((await storageUsed(client)) !== size * FILE_BYTES) throw new Error('the seeded storage is not counted');
    const trashed = await call(client, 'DELETE', `/api/user/folders/${folderId}`);
    const { result: emptied, peakRssMiB } = await peakDuring(server.pid, () => call(client, 'DELETE', '/api/trash'));
    const left = await storageUsed(client);
    if (left !== 0) throw new Error(`after emptying Trash of ${size} files, storage used is ${left} bytes, not 0`);
    points.push({
      size,
      requests: 1,
      p50Ms: emptied.ms,
      p99Ms: emptied.ms,
      perItemUs: (emptied.ms * 1000) / size,
      peakRssMiB,
      note: `moving the folder to Trash took ${trashed.ms.toFixed(0)} ms; storage used back to 0`,
    });
  }
  return {
    id: 'trash-empty',
    title: 'Emptying Trash (DELETE /api/trash), SQLite',
    sizeLabel: 'files in Trash',
    lines: [{ name: 'time per file', points }],
    plot: 'perItemUs',
    notes: ['A folder of rows (counted in storage, no blobs) moved to Trash through the API, then emptied; storage used is checked back at 0 each time.'],
  };
}
