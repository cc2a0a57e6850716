/**
 * A process-wide cap on the memory that buffered transfers hold at once: zips (their
 * output batches), downloads read from S3 (stream buffers) and local files sent through
 * buffers rather than with sendfile. Each transfer reserves the most it can hold before its
 * headers are sent and gives it back when its response is over. When a reservation would
 * pass the cap, the transfer is refused at once (503 with Retry-After) rather than queued:
 * a queue would hold requests and sockets without bound, or need a timer of its own, and
 * the cap is sized so that only a flood of downloads reaches it (docs/decisions/0015).
 */
export interface TransferBudget {
  /** Reserves `bytes`; answers the function that gives them back (once), or null when they would pass the cap. */
  take(bytes: number): (() => void) | null;
  /** Bytes reserved now. */
  readonly inUse: number;
  readonly limit: number;
}

export function createTransferBudget(limitBytes: number): TransferBudget {
  let inUse = 0;
  return {
    take(bytes) {
      if (bytes > 0 && inUse + bytes > limitBytes) return null;
      inUse += bytes;
      let held = true;
      return () => {
        if (held) inUse -= bytes;
        held = false;
      };
    },
    get inUse() {
      return inUse;
    },
    limit: limitBytes,
  };
}
