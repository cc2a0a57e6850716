/**
 * At most `limit` holders at once; the others wait in arrival order. Bounds work one
 * process does at a time (its own memory and CPU), not work across nodes.
 */
export function createSemaphore(limit: number) {
  let held = 0;
  const waiting: (() => void)[] = [];
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (held >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      else held += 1;
      try {
        return await work();
      } finally {
        // The slot passes straight to the next waiter, so a newcomer cannot slip in between.
        const next = waiting.shift();
        if (next) next();
        else held -= 1;
      }
    },
  };
}
