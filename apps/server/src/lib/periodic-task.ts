/**
 * Runs `run` soon after start and then every `intervalMs`, never two at once; a failure
 * is logged and the next run happens as planned. Returns a stop function.
 */
export function startPeriodicTask(options: {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  log: { info(details: object, message: string): void; error(details: object, message: string): void };
}): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const result = await options.run();
      // A turn that found nothing to do (0, an empty list) is not worth a log line every minute.
      if (result && !(Array.isArray(result) && result.length === 0)) options.log.info({ task: options.name, result }, 'periodic task done');
    } catch (error) {
      options.log.error({ err: error, task: options.name }, 'periodic task failed');
    } finally {
      running = false;
    }
  };
  const first = setTimeout(tick, 5_000);
  const every = setInterval(tick, options.intervalMs);
  // Background work never keeps the process alive on its own.
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
