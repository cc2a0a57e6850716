const MiB = 1024 * 1024;

/**
 * Sizes of the sync client's scenarios (issue 39; bench/README.md, "The sync client"):
 * BENCH_QUICK=1 shrinks them for a smoke run.
 */
export interface SyncConfig {
  quick: boolean;
  /** The tree of small files sent up and fetched down (issue 39: 10,000 of 4 KiB). */
  smallFileCount: number;
  smallFileBytes: number;
  /** Rounds of the small-file transfers, client and rclone interleaved: each round is a whole tree. */
  smallRounds: number;
  /** The one large file (issue 39: 1 GiB), and its rounds. */
  largeFileBytes: number;
  largeRounds: number;
  /** The tree passed over unchanged (issue 39: 100,000 files), in folders of `filesPerFolder`. */
  unchangedFileCount: number;
  filesPerFolder: number;
  unchangedRounds: number;
  /** Changes timed each way between two continuously running clients. */
  latencyChanges: number;
  /** A change not seen on the other disk after this counts as lost and fails the figure. */
  latencyTimeoutMs: number;
  /** rclone's parallel transfers, the ceiling the issue names. */
  rcloneTransfers: number;
  /** One client command or transfer with no end after this fails instead of hanging the run. */
  commandTimeoutMs: number;
  idleTimeoutMs: number;
  /** The whole group is cut off after this, with everything stopped and removed. */
  deadlineMs: number;
}

/** SYNC_ROUNDS=N sets every scenario's rounds (a long transfer once, on a busy machine); unset, the defaults below. */
export function loadSyncConfig(env: NodeJS.ProcessEnv): SyncConfig {
  const quick = env.BENCH_QUICK === '1';
  const rounds = env.SYNC_ROUNDS ? Number(env.SYNC_ROUNDS) : undefined;
  if (rounds !== undefined && !(Number.isInteger(rounds) && rounds > 0)) throw new Error('SYNC_ROUNDS must be a whole number above 0');
  return {
    quick,
    smallFileCount: quick ? 1000 : 10_000,
    smallFileBytes: 4 * 1024,
    smallRounds: rounds ?? (quick ? 1 : 3),
    largeFileBytes: (quick ? 64 : 1024) * MiB,
    largeRounds: rounds ?? (quick ? 1 : 3),
    unchangedFileCount: quick ? 10_000 : 100_000,
    filesPerFolder: 1000,
    unchangedRounds: rounds ?? (quick ? 1 : 3),
    latencyChanges: quick ? 4 : 10,
    latencyTimeoutMs: 30_000,
    rcloneTransfers: 8,
    commandTimeoutMs: quick ? 5 * 60_000 : 30 * 60_000,
    idleTimeoutMs: 120_000,
    deadlineMs: (quick ? 10 : 90) * 60_000,
  };
}
