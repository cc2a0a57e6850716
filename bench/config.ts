const MiB = 1024 * 1024;

/** Sizes and counts of one run; BENCH_QUICK=1 shrinks them for a smoke test under a minute. */
export interface BenchConfig {
  quick: boolean;
  largeFileBytes: number;
  zipFileCount: number;
  zipFileBytes: number;
  listingFileCount: number;
  listingRequests: number;
  /** Requests before the timed ones, so JIT and SQLite's page cache are warm for every server alike. */
  listingWarmup: number;
  /** The folder paged through in every sort and order (issue 36: 100,000 files). */
  sortedListingFileCount: number;
  /** Timed pages of 100 per sort and order. */
  sortedListingPages: number;
  /** The small folder listed by many clients at once, against a bare Fastify route. */
  concurrentListingFileCount: number;
  concurrentListingConnections: number;
  /** Each server is loaded for this long per round. */
  concurrentListingMs: number;
  concurrentUploads: number;
  concurrentFileBytes: number;
  /** The folder of small files copied (issue 36: 10,000), and each one's size. */
  copySmallFileCount: number;
  copySmallFileBytes: number;
  /** The folder of large files copied (issue 36: 1 GiB in all). */
  copyLargeFileCount: number;
  copyLargeFileBytes: number;
  /** Copies per side: each is a whole folder, so fewer than the transfers' rounds. */
  copyRounds: number;
  /** 12-megapixel JPEGs uploaded for the thumbnail scenario. */
  thumbnailPhotos: number;
  /** Each transfer is repeated this often, servers interleaved, and the median is reported. */
  rounds: number;
  /** Parallel uploads used to fill the zip folder (set-up, not measured). */
  setupConcurrency: number;
  /** A request with no progress for this long fails instead of hanging the run. */
  idleTimeoutMs: number;
  /** The whole run is cut off after this, with everything stopped and removed. */
  deadlineMs: number;
}

export function loadBenchConfig(env: NodeJS.ProcessEnv): BenchConfig {
  const quick = env.BENCH_QUICK === '1';
  return {
    quick,
    largeFileBytes: quick ? 64 * MiB : 1024 * MiB,
    zipFileCount: quick ? 100 : 1000,
    zipFileBytes: 100 * 1024,
    listingFileCount: quick ? 1000 : 10_000,
    listingRequests: 200,
    listingWarmup: 10,
    sortedListingFileCount: quick ? 10_000 : 100_000,
    sortedListingPages: quick ? 20 : 200,
    concurrentListingFileCount: 100,
    concurrentListingConnections: 50,
    concurrentListingMs: quick ? 1000 : 3000,
    concurrentUploads: quick ? 10 : 50,
    concurrentFileBytes: MiB,
    copySmallFileCount: quick ? 1000 : 10_000,
    copySmallFileBytes: 4 * 1024,
    copyLargeFileCount: 4,
    copyLargeFileBytes: (quick ? 16 : 256) * MiB,
    copyRounds: quick ? 1 : 3,
    thumbnailPhotos: quick ? 6 : 30,
    rounds: quick ? 1 : 5,
    setupConcurrency: 16,
    idleTimeoutMs: 60_000,
    // Five minutes of each are for the Lighthouse scenario, which took four and a half at a load average of 18.
    deadlineMs: quick ? 9 * 60_000 : 16 * 60_000,
  };
}
