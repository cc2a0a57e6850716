/** SQLite binds at most 32,766 values per statement; long id lists go in slices. */
export const BATCH_SIZE = 500;

/** Runs `work` on consecutive slices of `items` and concatenates what it returns. */
export async function inBatches<T, R>(items: readonly T[], work: (batch: T[]) => Promise<R[] | void>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += BATCH_SIZE) {
    const result = await work(items.slice(start, start + BATCH_SIZE));
    if (result) results.push(...result);
  }
  return results;
}
