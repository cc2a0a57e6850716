/**
 * One timer for every open stream's keep-alive comment: ten thousand idle streams cost one
 * wake-up per interval rather than ten thousand timers and promises (docs/decisions/0060).
 */
export function createKeepAlives(intervalMs: number) {
  const writers = new Set<() => void>();
  let timer: NodeJS.Timeout | undefined;
  return {
    /** Calls `write` every interval until the returned function is called. */
    add(write: () => void): () => void {
      writers.add(write);
      if (!timer) {
        timer = setInterval(() => writers.forEach((each) => each()), intervalMs);
        timer.unref();
      }
      return () => {
        writers.delete(write);
        if (writers.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
  };
}
