import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { BENCH_PASSWORD, createFolder } from '../lib/cloudvault-api.ts';
import { type Exchange, request } from '../lib/http-client.ts';
import { insertRows } from './listing.ts';
import { interleave, latencyFigures, type ScenarioContext, type ScenarioResult } from './scenario.ts';

/** The properties rclone asks for when it lists a folder. */
const PROPFIND_BODY = Buffer.from(
  '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop>' +
    '<d:displayname/><d:getlastmodified/><d:getcontentlength/><d:resourcetype/><d:getcontenttype/><d:getetag/>' +
    '</d:prop></d:propfind>',
);

/** Sequential PROPFINDs at depth 1 of one folder over WebDAV; the ceilings serve our own answer as a static file. */
export async function davListing(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { listingFileCount: count, listingRequests, listingWarmup, idleTimeoutMs } = ctx.config;
  const folderName = 'dav-listing-bench';
  const folderId = await createFolder(ctx.client, folderName);
  insertRows(ctx.ours.dataDir, ctx.client.userId, folderId, count);

  const created = await request(`${ctx.client.url}/api/user/app-passwords`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.client.token}`, 'content-type': 'application/json' },
    body: () => Readable.from([JSON.stringify({ name: 'bench', password: BENCH_PASSWORD })]),
    keepText: true,
    idleTimeoutMs,
  });
  if (created.status !== 201) throw new Error(`POST /api/user/app-passwords answered ${created.status}`);
  const auth = `Basic ${Buffer.from(`${ctx.client.email}:${JSON.parse(created.text).password}`).toString('base64')}`;
  const propfind = (keepText = false) =>
    request(`${ctx.client.url}/dav/${folderName}/`, {
      method: 'PROPFIND',
      headers: { authorization: auth, depth: '1', 'content-type': 'application/xml', 'content-length': String(PROPFIND_BODY.length) },
      body: () => Readable.from([PROPFIND_BODY]),
      keepText,
      idleTimeoutMs,
    });

  const first = await propfind(true);
  const listed = (first.text.match(/<D:response>/g) ?? []).length - 1;
  if (first.status !== 207 || listed !== count)
    throw new Error(`PROPFIND answered ${first.status} with ${listed} members, expected ${count}`);
  const staticName = 'dav-listing.xml';
  await writeFile(path.join(ctx.fixtures.filesDir, staticName), first.text);

  const series = async (get: () => Promise<Exchange>) => {
    const latencies: number[] = [];
    for (let index = 0; index < listingWarmup + listingRequests; index++) {
      const response = await get();
      if (response.status >= 300 || response.bytes !== first.bytes)
        throw new Error(`answered ${response.status} with ${response.bytes} bytes`);
      if (index >= listingWarmup) latencies.push(response.ms);
    }
    return latencies;
  };
  const outcomes = await interleave(1, [
    { server: 'ours', run: () => series(() => propfind()) },
    ...ctx.ceilings.map((ceiling) => ({
      server: ceiling.name,
      run: () => series(() => request(ceiling.fileUrl(staticName), { idleTimeoutMs })),
    })),
  ]);
  return {
    id: 'dav-listing',
    title: `WebDAV PROPFIND at depth 1 of a folder of ${count.toLocaleString('en')} files (${listingRequests} sequential requests)`,
    compares: 'p99Ms',
    figures: latencyFigures(outcomes),
    notes: [
      `The folder's ${count.toLocaleString('en')} rows were inserted directly into SQLite (valid rows, no blobs behind them), not uploaded.`,
      `${(first.bytes / 1e6).toFixed(1)} MB of XML per answer, written as keyset pages are read; the ceilings serve that same answer as a static file.`,
      `HTTP Basic with an app password: its check is remembered after the first request (docs/decisions/0028-app-passwords.md).`,
    ],
  };
}
