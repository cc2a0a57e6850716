import { Readable } from 'node:stream';
import { BENCH_PASSWORD, createFolder } from '../lib/cloudvault-api.ts';
import { request } from '../lib/http-client.ts';
import { insertRows } from '../scenarios/listing.ts';
import type { GrowthContext } from './context.ts';
import { type GrowthPoint, type GrowthSeries, latencyPoint, timeRequests } from './series.ts';

/** The properties rclone asks for when it lists a folder (as in scenarios/dav-listing.ts). */
const PROPFIND_BODY = Buffer.from(
  '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop>' +
    '<d:displayname/><d:getlastmodified/><d:getcontentlength/><d:resourcetype/><d:getcontenttype/><d:getetag/>' +
    '</d:prop></d:propfind>',
);

/** PROPFIND at depth 1 of folders of growing size over WebDAV, on SQLite. */
export async function davGrowth(ctx: GrowthContext): Promise<GrowthSeries> {
  const { server, client } = ctx.sqlite;
  const { idleTimeoutMs } = ctx.config;
  const created = await request(`${client.url}/api/user/app-passwords`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' },
    body: () => Readable.from([JSON.stringify({ name: 'growth bench', password: BENCH_PASSWORD })]),
    keepText: true,
    idleTimeoutMs,
  });
  if (created.status !== 201) throw new Error(`POST /api/user/app-passwords answered ${created.status}`);
  const auth = `Basic ${Buffer.from(`${client.email}:${JSON.parse(created.text).password}`).toString('base64')}`;

  const points: GrowthPoint[] = [];
  for (const size of ctx.config.davSizes) {
    ctx.log(`PROPFIND: a folder of ${size.toLocaleString('en')} files`);
    const folderName = `growth-dav-${size}`;
    insertRows(server.dataDir, client.userId, await createFolder(client, folderName), size);
    const propfind = () =>
      request(`${client.url}/dav/${folderName}/`, {
        method: 'PROPFIND',
        headers: { authorization: auth, depth: '1', 'content-type': 'application/xml', 'content-length': String(PROPFIND_BODY.length) },
        body: () => Readable.from([PROPFIND_BODY]),
        keepText: true,
        idleTimeoutMs,
      });
    const latencies = await timeRequests(ctx.config, propfind, (exchange) => {
      const members = (exchange.text.match(/<D:response>/g) ?? []).length - 1;
      if (exchange.status !== 207 || members !== size)
        throw new Error(`PROPFIND answered ${exchange.status} with ${members} members, expected ${size}`);
    });
    points.push(latencyPoint(size, latencies));
  }
  return {
    id: 'dav-listing',
    title: 'WebDAV PROPFIND, depth 1, SQLite',
    sizeLabel: 'files in the folder',
    lines: [{ name: 'p50 per file', points }],
    plot: 'perItemUs',
    notes: ['Rows inserted straight into SQLite; each answer is read whole and its members counted.'],
  };
}
