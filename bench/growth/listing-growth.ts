import { createFolder } from '../lib/cloudvault-api.ts';
import { request } from '../lib/http-client.ts';
import { insertRows } from '../scenarios/listing.ts';
import type { GrowthContext } from './context.ts';
import { type GrowthPoint, type GrowthSeries, latencyPoint, timeRequests } from './series.ts';

/** GET /api/files?folderId= of folders of growing size, on SQLite. */
export async function listingGrowth(ctx: GrowthContext): Promise<GrowthSeries> {
  const { server, client } = ctx.sqlite;
  const points: GrowthPoint[] = [];
  for (const size of ctx.config.listingSizes) {
    ctx.log(`listing: a folder of ${size.toLocaleString('en')} files`);
    const folderId = await createFolder(client, `growth-listing-${size}`);
    insertRows(server.dataDir, client.userId, folderId, size);
    const get = () =>
      request(`${client.url}/api/files?folderId=${folderId}`, {
        headers: { authorization: `Bearer ${client.token}` },
        keepText: true,
        idleTimeoutMs: ctx.config.idleTimeoutMs,
      });
    const latencies = await timeRequests(ctx.config, get, (exchange) => {
      const listed = exchange.status === 200 ? (JSON.parse(exchange.text).files as unknown[]).length : -1;
      if (listed !== size) throw new Error(`GET /api/files?folderId= answered ${exchange.status} with ${listed} files, expected ${size}`);
    });
    points.push(latencyPoint(size, latencies));
  }
  return {
    id: 'listing',
    title: 'Listing a folder (GET /api/files?folderId=), SQLite',
    sizeLabel: 'files in the folder',
    lines: [{ name: 'p50 per file', points }],
    plot: 'perItemUs',
    notes: ['Rows inserted straight into SQLite (valid rows, no blobs behind them); each answer is parsed and its files counted.'],
  };
}
