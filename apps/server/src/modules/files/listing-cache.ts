/**
 * Listing answers kept in this process with the database's change stamp when they were
 * read (db/change-stamp.ts): an answer is given again only while the stamp is the same,
 * so no change to the database, from any process, is ever missed. Re-reading a folder
 * of 10,000 files and writing its 2.9 MB is most of a listing's time
 * (docs/decisions/0034-request-cost.md); checking the stamp is one tiny statement. The
 * least recently used answers go past `maxBytes`.
 */
export interface ListingCache {
  /** The answer for `key`, built by `build` unless one kept is still current; null (no answer) is not kept. */
  get(key: string, build: () => Promise<Buffer | null>): Promise<Buffer | null>;
}

export function createListingCache(options: { changeStamp: () => string | null; maxBytes: number }): ListingCache {
  const kept = new Map<string, { stamp: string; body: Buffer }>();
  let keptBytes = 0;
  const forget = (key: string) => {
    const entry = kept.get(key);
    if (!entry) return;
    kept.delete(key);
    keptBytes -= entry.body.length;
  };
  return {
    async get(key, build) {
      // Read before the answer is built: a change made while it is built then gives it an older stamp, never a newer one.
      const stamp = options.changeStamp();
      if (stamp === null) return build();
      const entry = kept.get(key);
      if (entry?.stamp === stamp) {
        // Moved to the end: a Map iterates in insertion order, so the first key is the least recently used.
        kept.delete(key);
        kept.set(key, entry);
        return entry.body;
      }
      forget(key);
      const body = await build();
      if (body === null || body.length > options.maxBytes) return body;
      forget(key);
      kept.set(key, { stamp, body });
      keptBytes += body.length;
      for (const oldest of kept.keys()) {
        if (keptBytes <= options.maxBytes) break;
        forget(oldest);
      }
      return body;
    },
  };
}
