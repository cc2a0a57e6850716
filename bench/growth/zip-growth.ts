import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { createFolder, download, storeZipsUncompressed } from '../lib/cloudvault-api.ts';
import type { GrowthContext } from './context.ts';
import { peakDuring } from './peak-memory.ts';
import type { GrowthPoint, GrowthSeries } from './series.ts';

const FILE_BYTES = 512;
const newKey = () => randomBytes(16).toString('base64url');

/**
 * `count` files of FILE_BYTES in the folder, each with a blob of its own written where the
 * local store keeps it (DATA_DIR/blobs/ab/cd/abcd…) and a row with its real size and
 * CRC32: uploading 100,000 files would take minutes and measure uploads. Storage counters
 * are not adjusted; a zip does not read them.
 */
async function fillFolder(dataDir: string, userId: string, folderId: string, count: number): Promise<void> {
  const content = randomBytes(FILE_BYTES);
  const crc32 = zlib.crc32(content);
  const keys = Array.from({ length: count }, newKey);
  for (const key of keys) {
    const shard = path.join(dataDir, 'blobs', key.slice(0, 2), key.slice(2, 4));
    await mkdir(shard, { recursive: true });
    await writeFile(path.join(shard, key), content);
  }
  const db = new Database(path.join(dataDir, 'cloudvault.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const insert = db.prepare(
      // The names are ASCII, so their key (contract nameKey) is lower(name).
      `INSERT INTO files (id, user_id, folder_id, name, name_key, mimetype, category, size, sha256, crc32, blob_key, created_at, updated_at, deleted_at, trashed_root)
       VALUES (?, ?, ?, ?, lower(?), 'application/octet-stream', 'other', ?, ?, ?, ?, ?, ?, NULL, 0)`,
    );
    const now = new Date().toISOString();
    const sha256 = 'cd'.repeat(32);
    db.transaction(() => {
      keys.forEach((key, index) => {
        const name = `small-${String(index).padStart(6, '0')}.bin`;
        insert.run(newKey(), userId, folderId, name, name, FILE_BYTES, sha256, crc32, key, now, now);
      });
    })();
  } finally {
    db.close();
  }
}

/** The server's peak memory and time while it zips folders of growing file counts, on SQLite and local blobs. */
export async function zipGrowth(ctx: GrowthContext): Promise<GrowthSeries> {
  const { server, client } = ctx.sqlite;
  const compression = await storeZipsUncompressed(client);
  const points: GrowthPoint[] = [];
  for (const size of ctx.config.zipSizes) {
    ctx.log(`zip: a folder of ${size.toLocaleString('en')} files of ${FILE_BYTES} bytes`);
    const folderId = await createFolder(client, `growth-zip-${size}`);
    await fillFolder(server.dataDir, client.userId, folderId, size);
    const {
      result: response,
      peakRssMiB,
      peakMiB,
    } = await peakDuring(server.pid, () => download(client, `/api/user/folders/${folderId}/download`));
    if (response.status !== 200 || response.bytes < size * FILE_BYTES)
      throw new Error(`the zip answered ${response.status} with ${response.bytes} bytes`);
    points.push({
      size,
      requests: 1,
      p50Ms: response.ms,
      p99Ms: response.ms,
      perItemUs: (response.ms * 1000) / size,
      peakRssMiB,
      note: `${(response.bytes / 1e6).toFixed(1)} MB zip; server peak ${peakMiB.toFixed(0)} MiB`,
    });
  }
  return {
    id: 'zip-memory',
    title: 'Folder zip: server memory above its level before, SQLite',
    sizeLabel: 'files in the folder',
    lines: [{ name: 'peak RSS rise', points }],
    plot: 'peakRssMiB',
    notes: [
      `Files of ${FILE_BYTES} bytes, blobs written into the local store and rows into SQLite; ${compression.stored ? 'stored (no compression)' : 'deflated'}.`,
      'Peak: VmHWM after the download, reset through /proc/<pid>/clear_refs before it, minus RSS before; one download per size.',
    ],
  };
}
