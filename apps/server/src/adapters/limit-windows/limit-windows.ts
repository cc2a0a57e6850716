/** What counting one event found: whether it was counted, the window's count after it, and when the window ends. */
export interface WindowCount {
  counted: boolean;
  count: number;
  /** Milliseconds since the epoch. */
  endsAt: number;
}

/**
 * Fixed-window counters that every server node shares (docs/decisions/0019): in Redis
 * when REDIS_URL is set, in the database otherwise. A window starts with the first event
 * of a key and lasts `windowMs`; an ended window counts nothing. Each operation is one
 * atomic step in the store, so two nodes never both take the last attempt, and a node
 * killed between two steps leaves at most one attempt counted that it would have taken back.
 * The store's outages surface as errors; the callers decide what a limited action answers.
 */
export interface LimitWindows {
  /**
   * Counts one event of `key`, unless `cap` events are counted in its running window
   * already (then nothing is counted). Without a cap every event counts.
   */
  count(key: string, windowMs: number, cap?: number): Promise<WindowCount>;
  /** Takes one counted event back, in a running window only. */
  uncount(key: string): Promise<void>;
  /**
   * Takes `key` as a lease for `holder` (a window of one that names its holder) unless a
   * running one holds it; true when taken. Only the holder renews or releases it, so a
   * holder whose lease lapsed cannot end or stretch the next holder's.
   */
  takeLease(key: string, holder: string, leaseMs: number): Promise<boolean>;
  /** Moves the end of `holder`'s running lease to `leaseMs` from now; false when it lapsed or another holds the key. */
  renewLease(key: string, holder: string, leaseMs: number): Promise<boolean>;
  /** Ends `holder`'s lease on `key`; a lease of another holder stays. */
  releaseLease(key: string, holder: string): Promise<void>;
  /** Forgets the key's window. */
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}
