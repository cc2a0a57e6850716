import { type CloudVaultClient, createFolder, register } from '../lib/cloudvault-api.ts';
import { request } from '../lib/http-client.ts';
import { insertRows } from '../scenarios/listing.ts';
import type { GrowthContext } from './context.ts';
import { peakDuring } from './peak-memory.ts';
import type { GrowthPoint, GrowthSeries } from './series.ts';

async function call(client: CloudVaultClient, method: string, route: string) {
  const exchange = await request(`${client.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${client.token}` },
    keepText: true,
    idleTimeoutMs: client.idleTimeoutMs,
  });
  if (exchange.status >= 300) throw new Error(`${method} ${route} answered ${exchange.status}: ${exchange.text.slice(0, 200)}`);
  return exchange;
}

const storageUsed = async (client: CloudVaultClient) =>
  JSON.parse((await call(client, 'GET', '/api/user/dashboard')).text).storageInfo.storageUsed as number;

/** Emptying a Trash that holds a folder of growing file counts, on SQLite: time, time per file, peak memory, storage after. */
export async function trashGrowth(ctx: GrowthContext): Promise<GrowthSeries> {
  const { server } = ctx.sqlite;
  const client = await register(server.url, ctx.config.idleTimeoutMs);
  const points: GrowthPoint[] = [];
  for (const size of ctx.config.trashSizes) {
    ctx.log(`trash: emptying ${size.toLocaleString('en')} files`);
    const folderId = await createFolder(client, `growth-trash-${size}`);
    // Counted in the owner's storage as uploads would be (no blobs: deleting a missing blob is a no-op).
    const seededBytes = insertRows(server.dataDir, client.userId, folderId, size, { countInStorage: true });
    if ((await storageUsed(client)) !== seededBytes) throw new Error('the seeded storage is not counted');
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
    notes: [
      'A folder of rows (counted in storage, no blobs) moved to Trash through the API, then emptied; storage used is checked back at 0 each time.',
    ],
  };
}
