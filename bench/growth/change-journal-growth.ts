import { openDatabase } from '../../apps/server/src/db/database.ts';
import { systemClock } from '../../apps/server/src/lib/clock.ts';
import { encodeCursor } from '../../apps/server/src/modules/changes/change-cursors.ts';
import { createChangeRetention, RETENTION_BATCH } from '../../apps/server/src/modules/changes/change-retention.ts';
import { type DatabaseTarget, fillJournal, openSeedDatabase, type SeedDatabase, seedAccounts } from '../changes/feed-database.ts';
import type { CloudVaultClient } from '../lib/cloudvault-api.ts';
import { request } from '../lib/http-client.ts';
import type { OurServer } from '../servers/ours.ts';
import type { GrowthContext } from './context.ts';
import { type GrowthPoint, type GrowthSeries, latencyPoint, timeRequests } from './series.ts';

/** The entries of each size are spread over this many accounts, the bench user's among them. */
const ACCOUNTS = 100;
const PAGE = 1000;
const DAY_MS = 24 * 3600 * 1000;

/** Bytes the `changes` table and its indexes take: SQLite's pages in use (dbstat), PostgreSQL's relation with its indexes and TOAST. */
async function journalBytes(db: SeedDatabase): Promise<number> {
  const [row] =
    db.dialect === 'sqlite'
      ? await db.query<{ bytes: number }>(
          `SELECT sum(pgsize) AS bytes FROM dbstat WHERE name IN (SELECT name FROM sqlite_master WHERE tbl_name = 'changes')`,
        )
      : await db.query<{ bytes: string }>(`SELECT pg_total_relation_size('changes') AS bytes`);
  return Number(row!.bytes);
}

/**
 * The server's own retention job (modules/changes/change-retention.ts), run from the bench
 * process on the server's database as the hourly schedule runs it: every entry older than
 * CHANGE_FEED.retentionMs, oldest first, a batch per transaction. Answers how many it removed.
 */
async function runRetention(target: DatabaseTarget): Promise<{ removed: number; ms: number }> {
  const handle = openDatabase(
    'dataDir' in target ? { databaseUrl: undefined, dataDir: target.dataDir } : { databaseUrl: target.databaseUrl, dataDir: '' },
  );
  try {
    const retention = createChangeRetention({ db: handle.db, clock: systemClock });
    const started = performance.now();
    const { entries } = await retention.prune();
    return { removed: entries, ms: performance.now() - started };
  } finally {
    await handle.close();
  }
}

interface JournalLine {
  bytes: GrowthPoint[];
  retention: GrowthPoint[];
}

/**
 * One database's journal at each size: entries inserted straight into it (as uploads
 * write them, dated 40 days ago), its bytes per entry, a page of 1,000 read at the end of
 * the bench user's share through HTTP, then the retention removing every one of them.
 */
async function measureJournal(
  ctx: GrowthContext,
  label: string,
  server: OurServer,
  client: CloudVaultClient,
  target: DatabaseTarget,
): Promise<JournalLine> {
  const db = await openSeedDatabase(target);
  const line: JournalLine = { bytes: [], retention: [] };
  try {
    // Minted tokens are not used: the pages are read by the bench user, whose token the server signed.
    const others = await seedAccounts(db, 'unused secret of at least 32 characters', ACCOUNTS - 1, 'journal');
    const accounts = [client.userId, ...others.map((account) => account.userId)];
    const heads = new Map<string, number>();
    for (const userId of accounts) {
      const [head] = await db.query<{ seq: number | string }>('SELECT seq FROM change_heads WHERE user_id = ?', [userId]);
      heads.set(userId, Number(head?.seq ?? 0));
    }
    for (const size of ctx.config.changeJournalSizes) {
      ctx.log(`change journal, ${label}: ${size.toLocaleString('en')} entries`);
      const each = Math.max(PAGE, Math.floor(size / ACCOUNTS));
      const firstAtMs = Date.now() - 40 * DAY_MS;
      let written = 0;
      for (const userId of accounts) {
        if (written >= size) break;
        const count = Math.min(each, size - written);
        const from = heads.get(userId)! + 1;
        await fillJournal(db, userId, from, from + count - 1, firstAtMs);
        heads.set(userId, from + count - 1);
        written += count;
      }
      await db.query('ANALYZE changes');
      const [{ entries }] = (await db.query<{ entries: number | string }>('SELECT count(*) AS entries FROM changes')) as [
        { entries: number | string },
      ];
      const bytes = await journalBytes(db);

      const cursor = encodeCursor(client.userId, heads.get(client.userId)! - PAGE);
      const page = () =>
        request(`${server.url}/api/changes?cursor=${cursor}&limit=${PAGE}`, {
          headers: { authorization: `Bearer ${client.token}` },
          keepText: true,
          idleTimeoutMs: ctx.config.idleTimeoutMs,
        });
      // The kept-alive connection sat idle through the fill: the server may close it just as it is reused.
      await page().catch(() => undefined);
      const latencies = await timeRequests(ctx.config, page, (exchange) => {
        if (exchange.status !== 200) throw new Error(`GET /api/changes answered ${exchange.status}: ${exchange.text.slice(0, 200)}`);
        const count = (JSON.parse(exchange.text) as { changes: unknown[] }).changes.length;
        if (count !== PAGE) throw new Error(`the last page held ${count} changes, not ${PAGE}`);
      });
      const bytesPerItem = bytes / Number(entries);
      line.bytes.push(
        latencyPoint(size, latencies, {
          bytesPerItem,
          note: `${bytesPerItem.toFixed(0)} bytes per entry (${(bytes / 1e6).toFixed(1)} MB for ${Number(entries).toLocaleString('en')}); p50/p99: the last page of 1,000`,
        }),
      );

      const { removed, ms } = await runRetention(target);
      if (removed !== written) throw new Error(`the retention removed ${removed} entries of the ${written} expired`);
      line.retention.push({
        size,
        requests: 1,
        p50Ms: ms,
        p99Ms: ms,
        perItemUs: (ms * 1000) / size,
        note: `${removed.toLocaleString('en')} removed in batches of ${RETENTION_BATCH.toLocaleString('en')}`,
      });
      // The space freed is reused by the next size's entries, as autovacuum would leave it.
      if (db.dialect === 'postgres') await db.query('VACUUM changes');
    }
  } finally {
    await db.close();
  }
  return line;
}

let measured: Promise<{ sqlite: JournalLine; postgres: JournalLine | null }> | undefined;

/** Both databases measured once for the two series that show them. */
function measureBoth(ctx: GrowthContext) {
  measured ??= (async () => ({
    sqlite: await measureJournal(ctx, 'SQLite', ctx.sqlite.server, ctx.sqlite.client, { dataDir: ctx.sqlite.server.dataDir }),
    postgres: ctx.postgres
      ? await measureJournal(ctx, 'PostgreSQL', ctx.postgres.server, ctx.postgres.client, { databaseUrl: ctx.postgres.databaseUrl })
      : null,
  }))();
  return measured;
}

const lines = (both: Awaited<ReturnType<typeof measureBoth>>, pick: (line: JournalLine) => GrowthPoint[]) => [
  { name: 'SQLite', points: pick(both.sqlite) },
  ...(both.postgres ? [{ name: 'PostgreSQL', points: pick(both.postgres) }] : []),
];

/** The change journal's size per entry as it grows, and a page read at its end (issue 37). */
export async function changeJournalGrowth(ctx: GrowthContext): Promise<GrowthSeries> {
  const both = await measureBoth(ctx);
  return {
    id: 'change-journal',
    title: 'Change journal: bytes per entry, and a page of 1,000 at its end',
    sizeLabel: 'journal entries',
    lines: lines(both, (line) => line.bytes),
    plot: 'bytesPerItem',
    notes: [
      `Entries inserted straight into the database (op created with a file's state, as uploads write them), spread over ${ACCOUNTS} accounts; bytes are the table's and its indexes' (SQLite: dbstat's pages; PostgreSQL: pg_total_relation_size). The times are GET /api/changes?limit=1000 at the end of the bench user's entries.`,
    ],
  };
}

/** What removing expired entries costs as the journal grows. */
export async function changeRetentionGrowth(ctx: GrowthContext): Promise<GrowthSeries> {
  const both = await measureBoth(ctx);
  return {
    id: 'change-retention',
    title: 'Change journal retention: removing expired entries',
    sizeLabel: 'expired entries',
    lines: lines(both, (line) => line.retention),
    plot: 'perItemUs',
    notes: [
      `Every entry of the series above, dated 40 days ago, removed by the server's retention job (modules/changes/change-retention.ts: batches of ${RETENTION_BATCH.toLocaleString('en')}, oldest first, each account's pruned_through raised in the same transaction), run from the bench process on the server's database.`,
    ],
  };
}
