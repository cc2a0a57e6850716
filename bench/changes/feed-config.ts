/**
 * Sizes of the change feed's scenarios (issue 37; bench/README.md, "The change feed"):
 * BENCH_QUICK=1 shrinks them for a smoke run. The waiters and streams are spread over
 * accounts of 25, the most a node lets one account hold (CHANGE_FEED in policies.ts).
 */
export interface FeedConfig {
  quick: boolean;
  /** Waiting places per account and node (CHANGE_FEED.listenersPerAccount). */
  listenersPerAccount: number;
  /** Accounts whose 25 waiters each wait for one change: 40 × 25 = 1,000. */
  wakeAccounts: number;
  /** Changes made, each answering every waiter once. */
  wakeRounds: number;
  /** Accounts holding 25 idle streams each: 400 × 25 = 10,000. */
  streamAccounts: number;
  /** Processes the streams' client side is spread over. */
  streamHolders: number;
  /** How long the server's CPU is read with the streams open. */
  idleWindowMs: number;
  /** Journal entries read after a cursor, in pages of `catchUpPage`. */
  catchUpChanges: number;
  catchUpPage: number;
  catchUpRounds: number;
  /** Where the two-node scenario creates its throwaway database. */
  postgresAdminUrl: string;
  idleTimeoutMs: number;
}

export function loadFeedConfig(env: NodeJS.ProcessEnv): FeedConfig {
  const quick = env.BENCH_QUICK === '1';
  return {
    quick,
    listenersPerAccount: 25,
    wakeAccounts: quick ? 8 : 40,
    wakeRounds: quick ? 1 : 3,
    streamAccounts: quick ? 40 : 400,
    streamHolders: 2,
    idleWindowMs: quick ? 5_000 : 30_000,
    catchUpChanges: quick ? 10_000 : 100_000,
    catchUpPage: 1000,
    catchUpRounds: quick ? 1 : 3,
    postgresAdminUrl: env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    idleTimeoutMs: 120_000,
  };
}
