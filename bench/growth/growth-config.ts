/** Sizes of the growth series ("How cost grows" in bench/README.md); each list is overridable by env. */
export interface GrowthConfig {
  quick: boolean;
  listingSizes: number[];
  davSizes: number[];
  searchSizes: number[];
  zipSizes: number[];
  trashSizes: number[];
  consoleUsers: number[];
  /** Journal entries of the change feed (issue 37), spread over 100 accounts. */
  changeJournalSizes: number[];
  /** Ids of the series to run (`GROWTH_SERIES`, comma-separated); null runs them all. */
  only: string[] | null;
  /** Timed requests per point at most; a point stops earlier once it has spent `pointBudgetMs`. */
  requests: number;
  /** Fewest timed requests per point, whatever the budget. */
  minRequests: number;
  warmup: number;
  pointBudgetMs: number;
  /** Where the PostgreSQL series create their throwaway database. */
  postgresAdminUrl: string;
  idleTimeoutMs: number;
  deadlineMs: number;
}

const sizes = (value: string | undefined, fallback: number[]) =>
  value
    ? value
        .split(',')
        .map((part) => Number(part.replace(/_/g, '')))
        .filter((size) => Number.isInteger(size) && size > 0)
    : fallback;

export function loadGrowthConfig(env: NodeJS.ProcessEnv): GrowthConfig {
  const quick = env.BENCH_QUICK === '1';
  return {
    quick,
    listingSizes: sizes(env.GROWTH_LISTING_SIZES, quick ? [100, 1000, 5000] : [100, 1000, 10_000, 100_000]),
    davSizes: sizes(env.GROWTH_DAV_SIZES, quick ? [100, 1000, 5000] : [100, 1000, 10_000, 100_000]),
    searchSizes: sizes(env.GROWTH_SEARCH_SIZES, quick ? [1000, 10_000] : [10_000, 100_000, 1_000_000]),
    zipSizes: sizes(env.GROWTH_ZIP_SIZES, quick ? [100, 1000] : [1000, 10_000, 100_000]),
    trashSizes: sizes(env.GROWTH_TRASH_SIZES, quick ? [100, 1000, 5000] : [1000, 10_000, 100_000]),
    consoleUsers: sizes(env.GROWTH_CONSOLE_USERS, quick ? [1000, 5000] : [1000, 10_000, 100_000]),
    changeJournalSizes: sizes(env.GROWTH_CHANGE_JOURNAL_SIZES, quick ? [1000, 10_000] : [10_000, 100_000, 1_000_000]),
    only: env.GROWTH_SERIES
      ? env.GROWTH_SERIES.split(',')
          .map((id) => id.trim())
          .filter(Boolean)
      : null,
    requests: Number(env.GROWTH_REQUESTS ?? (quick ? 20 : 100)),
    minRequests: quick ? 5 : 20,
    warmup: quick ? 2 : 5,
    pointBudgetMs: quick ? 1500 : 20_000,
    postgresAdminUrl: env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    idleTimeoutMs: 120_000,
    deadlineMs: Number(env.GROWTH_DEADLINE_MINUTES ?? (quick ? 1.5 : 40)) * 60_000,
  };
}
