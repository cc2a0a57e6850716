/**
 * Background work (docs/decisions/0017-job-runner.md): periodic jobs on a cron schedule, run
 * once per due time whatever the number of nodes, and queued jobs run once per enqueue.
 * Every handler must be idempotent: a node killed mid-run leaves its job to run again.
 */
export interface PeriodicJob {
  /** Letters, digits, `-`, `_` and `.`: the queue's name in pg-boss too. */
  name: string;
  /** A cron expression in UTC ("0 * * * *" is hourly); an optional leading seconds field counts only in-process. */
  cron: string;
  run(): Promise<unknown>;
}

export interface QueuedJob<Data extends object = object> {
  name: string;
  run(data: Data): Promise<unknown>;
}

export interface EnqueueOptions {
  /** While a job with this key waits to start, another enqueue with it is dropped. */
  singletonKey?: string;
  /** Not before this time. */
  startAfter?: Date;
}

/**
 * What operators and metrics read: how much waits and how much failed, per job. pg-boss
 * counts as of its last monitor pass (about a minute old at most); in-process counts are live.
 */
export interface JobStats {
  name: string;
  kind: 'periodic' | 'queued';
  /** Waiting to start (due or not). */
  queued: number;
  active: number;
  /** pg-boss: failed jobs it still keeps (all nodes); in-process: failures since start. */
  failed: number;
}

export interface JobRunner {
  /** `pg-boss` on PostgreSQL, `in-process` on SQLite. */
  readonly driver: 'pg-boss' | 'in-process';
  /** Registers before start. */
  addPeriodic(job: PeriodicJob): void;
  addQueued<Data extends object>(job: QueuedJob<Data>): void;
  /** Begins running schedules and queues on this node. */
  start(): Promise<void>;
  /** pg-boss takes jobs once started; in-process, jobs enqueued before start wait for it. */
  enqueue(name: string, data: object, options?: EnqueueOptions): Promise<void>;
  /** Runs the job's handler here and now, outside its schedule (tests, operators); answers its result. */
  runNow(name: string, data?: object): Promise<unknown>;
  /** Each registered job's counts; pg-boss answers none while the runner is not running on this node. */
  stats(): Promise<JobStats[]>;
  /** Stops taking work and waits for running jobs; what does not finish in time is released to run again. */
  stop(): Promise<void>;
}
