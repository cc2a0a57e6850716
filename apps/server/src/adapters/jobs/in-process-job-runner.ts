import type { Clock } from '../../lib/clock.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import { nextCronTime } from './cron-schedule.ts';
import { createJobRegistry } from './job-registry.ts';
import type { EnqueueOptions, JobRunner, JobStats, PeriodicJob } from './job-runner.ts';

/** setTimeout's longest delay; a later due time is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Waiting {
  name: string;
  data: object;
  singletonKey: string | undefined;
  startAfter: Date | undefined;
  timer: NodeJS.Timeout | undefined;
}

/**
 * The runner of a single-node (SQLite) installation: timers in this process. Queued jobs
 * wait in memory, not in a table (docs/decisions/0017-job-runner.md): what a killed process
 * loses, the periodic sweeps that own the same work redo. A periodic job never runs twice at
 * once here; a turn that comes due while the last one runs is skipped.
 */
export function createInProcessJobRunner(deps: { clock: Clock; log: ServiceLog }): JobRunner {
  const { clock } = deps;
  const registry = createJobRegistry(deps.log);
  const schedules = new Map<string, NodeJS.Timeout>();
  const waiting = new Set<Waiting>();
  const active = new Map<string, number>();
  const failures = new Map<string, number>();
  const running = new Set<Promise<unknown>>();
  let state: 'new' | 'started' | 'stopped' = 'new';

  function runTracked(name: string, run: () => Promise<unknown>): void {
    active.set(name, (active.get(name) ?? 0) + 1);
    const turn = run()
      .catch(() => failures.set(name, (failures.get(name) ?? 0) + 1))
      .finally(() => {
        active.set(name, (active.get(name) ?? 1) - 1);
        running.delete(turn);
      });
    running.add(turn);
  }

  /** Arms the timer for the job's next due time; at it, runs the job (unless it still runs) and re-arms. */
  function schedule(job: PeriodicJob): void {
    const due = nextCronTime(job.cron, clock.now());
    const timer = setTimeout(
      () => {
        if (state !== 'started') return;
        if (clock.now() >= due && !active.get(job.name)) runTracked(job.name, () => registry.run(job.name));
        schedule(job);
      },
      Math.min(Math.max(due.getTime() - clock.now().getTime(), 0), MAX_TIMER_MS),
    );
    // Background work never keeps the process alive on its own.
    timer.unref();
    schedules.set(job.name, timer);
  }

  function release(entry: Waiting): void {
    if (state !== 'started' || !waiting.has(entry)) return;
    waiting.delete(entry);
    runTracked(entry.name, () => registry.run(entry.name, entry.data));
  }

  function arm(entry: Waiting): void {
    const delay = entry.startAfter ? entry.startAfter.getTime() - clock.now().getTime() : 0;
    if (delay <= 0) {
      queueMicrotask(() => release(entry));
      return;
    }
    entry.timer = setTimeout(() => release(entry), Math.min(delay, MAX_TIMER_MS));
    entry.timer.unref();
  }

  return {
    driver: 'in-process',
    addPeriodic: registry.addPeriodic,
    addQueued: registry.addQueued,

    async start() {
      if (state !== 'new') return;
      registry.seal();
      state = 'started';
      for (const job of registry.all()) if (job.kind === 'periodic') schedule(job);
      for (const entry of waiting) arm(entry);
    },

    async enqueue(name: string, data: object, options: EnqueueOptions = {}) {
      if (registry.get(name).kind !== 'queued') throw new Error(`job ${name} is periodic, not queued`);
      if (state === 'stopped') throw new Error('the job runner has stopped');
      const { singletonKey, startAfter } = options;
      if (singletonKey !== undefined && [...waiting].some((entry) => entry.name === name && entry.singletonKey === singletonKey)) return;
      const entry: Waiting = { name, data, singletonKey, startAfter, timer: undefined };
      waiting.add(entry);
      if (state === 'started') arm(entry);
    },

    runNow: (name, data) => registry.run(name, data),

    async stats(): Promise<JobStats[]> {
      return registry.all().map((job) => ({
        name: job.name,
        kind: job.kind,
        queued: [...waiting].filter((entry) => entry.name === job.name).length,
        active: active.get(job.name) ?? 0,
        failed: failures.get(job.name) ?? 0,
      }));
    },

    async stop() {
      if (state === 'stopped') return;
      state = 'stopped';
      for (const timer of schedules.values()) clearTimeout(timer);
      schedules.clear();
      for (const entry of waiting) clearTimeout(entry.timer);
      if (waiting.size > 0) deps.log.warn({ jobs: waiting.size }, 'queued jobs dropped at shutdown');
      waiting.clear();
      await Promise.allSettled([...running]);
    },
  };
}
