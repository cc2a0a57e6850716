import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { LISTING_ORDERS, LISTING_SORTS, naturalSortKey } from '@cloudvault/contract/sort-keys';
import { nameKey } from '@cloudvault/contract/validation';
import { createFolder } from '../lib/cloudvault-api.ts';
import { type Exchange, request } from '../lib/http-client.ts';
import { percentile } from '../lib/stats.ts';
import { interleave, latencyFigures, type ScenarioContext, type ScenarioResult, type Target } from './scenario.ts';

/** The issue's bar (issue 36): a page of a sorted 100,000-file folder within 50 ms at the 99th percentile. */
const PAGE_P99_TARGET_MS = 50;
const PAGE = 100;
const TYPES = ['application/pdf', 'image/jpeg', 'text/plain', 'video/mp4', 'application/zip'];
const newId = () => randomBytes(16).toString('base64url');

/**
 * Fills the folder with `count` rows written straight into the server's SQLite database, as
 * scenarios/listing.ts does (valid rows, no blobs behind them), each sorting somewhere else
 * by every key: names with unpadded numbers in mixed case (natural order matters), sizes
 * and modification times in a scrambled order, five mimetypes. Keys computed as the app
 * computes them (contract nameKey and naturalSortKey).
 */
function insertSortableRows(dataDir: string, userId: string, folderId: string, count: number): void {
  const db = new Database(path.join(dataDir, 'cloudvault.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const insert = db.prepare(
      `INSERT INTO files (id, user_id, folder_id, name, name_key, sort_key, mimetype, category, size, sha256, crc32, blob_key, created_at, updated_at, deleted_at, trashed_root)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'document', ?, ?, 0, ?, ?, ?, NULL, 0)`,
    );
    const start = Date.UTC(2026, 0, 1);
    db.transaction(() => {
      for (let index = 1; index <= count; index++) {
        // A multiplier coprime with the count scrambles the order of sizes and times.
        const scrambled = (index * 7919) % count;
        const name = `${index % 2 ? 'Scan' : 'scan'} ${index}.${['pdf', 'jpg', 'txt', 'mp4', 'zip'][index % 5]}`;
        const at = new Date(start + scrambled * 1000).toISOString();
        insert.run(
          newId(),
          userId,
          folderId,
          name,
          nameKey(name),
          naturalSortKey(name),
          TYPES[index % 5],
          1000 + scrambled,
          randomBytes(32).toString('hex'),
          newId(),
          at,
          at,
        );
      }
    })();
    db.exec('ANALYZE');
  } finally {
    db.close();
  }
}

/**
 * Pages of 100 of a 100,000-file folder by each sort and order, each page timed from the
 * request to the last byte. Half the timed pages follow the cursor from the first page;
 * half from the middle of the folder (reached by untimed pages of 1,000), since a keyset
 * page should cost the same wherever it starts. The ceilings serve one such page as a
 * static file: the cost of moving its bytes alone.
 */
export async function sortedListing(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { sortedListingFileCount: count, sortedListingPages: pages } = ctx.config;
  const folderId = await createFolder(ctx.client, 'sorted-listing-bench');
  insertSortableRows(ctx.ours.dataDir, ctx.client.userId, folderId, count);
  const auth = { authorization: `Bearer ${ctx.client.token}` };
  const get = async (query: string): Promise<Exchange & { body: { files: unknown[]; nextCursor: string | null } }> => {
    const exchange = await request(`${ctx.client.url}/api/files?folderId=${folderId}&${query}`, {
      headers: auth,
      keepText: true,
      idleTimeoutMs: ctx.config.idleTimeoutMs,
    });
    if (exchange.status !== 200) throw new Error(`GET /api/files?${query} answered ${exchange.status}: ${exchange.text.slice(0, 200)}`);
    return { ...exchange, body: JSON.parse(exchange.text) };
  };

  const first = await get(`sort=name&limit=${PAGE}`);
  const staticName = 'sorted-listing-page.json';
  await writeFile(path.join(ctx.fixtures.filesDir, staticName), first.text);

  /** The timed pages of one order: `pages / 2` from the first page on, as many from the middle. */
  const walk = async (sort: string, order: string): Promise<number[]> => {
    const latencies: number[] = [];
    const follow = async (cursor: string | null) => {
      for (let page = 0; page < pages / 2; page++) {
        const answer = await get(`sort=${sort}&order=${order}&limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`);
        if (answer.body.files.length !== PAGE) throw new Error(`a page of ${sort} ${order} held ${answer.body.files.length} files`);
        latencies.push(answer.ms);
        cursor = answer.body.nextCursor;
      }
    };
    await follow(null);
    let middle: string | null = null;
    for (let skipped = 0; skipped < count / 2; skipped += 1000) {
      middle = (await get(`sort=${sort}&order=${order}&limit=1000${middle ? `&cursor=${middle}` : ''}`)).body.nextCursor;
    }
    await follow(middle);
    return latencies;
  };

  const byOrder = new Map<string, number[]>();
  const outcomes = await interleave(1, [
    {
      server: 'ours',
      run: async () => {
        const all: number[] = [];
        for (const sort of LISTING_SORTS) {
          for (const order of LISTING_ORDERS) {
            const latencies = await walk(sort, order);
            byOrder.set(`${sort} ${order}`, latencies);
            all.push(...latencies);
          }
        }
        return all;
      },
    },
    ...ctx.ceilings.map((ceiling) => ({
      server: ceiling.name,
      run: async () => {
        const latencies: number[] = [];
        for (let index = 0; index < pages * LISTING_SORTS.length * LISTING_ORDERS.length; index++) {
          const answer = await request(ceiling.fileUrl(staticName), { idleTimeoutMs: ctx.config.idleTimeoutMs });
          if (answer.status !== 200 || answer.bytes !== first.bytes)
            throw new Error(`answered ${answer.status} with ${answer.bytes} bytes`);
          latencies.push(answer.ms);
        }
        return latencies;
      },
    })),
  ]);

  const targets: Target[] = [...byOrder].map(([order, latencies]) => {
    const p99 = percentile(latencies, 99);
    return {
      description: `A page of ${PAGE} of a ${count.toLocaleString('en')}-file folder by ${order}: p99 under ${PAGE_P99_TARGET_MS} ms`,
      measured: `p99 ${p99.toFixed(1)} ms, p50 ${percentile(latencies, 50).toFixed(1)} ms (${latencies.length} pages)`,
      met: p99 < PAGE_P99_TARGET_MS,
    };
  });
  return {
    id: 'sorted-listing',
    title: `Pages of ${PAGE} of a sorted ${count.toLocaleString('en')}-file folder, by each sort and order`,
    compares: 'p99Ms',
    figures: latencyFigures(outcomes),
    notes: [
      `The folder's ${count.toLocaleString('en')} rows were inserted directly into SQLite (valid rows, keys as the app computes them, no blobs behind them), not uploaded.`,
      `Per sort and order (${LISTING_SORTS.length} × ${LISTING_ORDERS.length}): ${pages / 2} pages from the first one on and ${pages / 2} from the middle of the folder, following nextCursor; "ours" is all of them together, each order's own p99 is a target below.`,
      `${(first.bytes / 1e3).toFixed(1)} kB of JSON per page; the ceilings serve one page as a static file, as often as ours answered pages.`,
    ],
    targets,
  };
}
