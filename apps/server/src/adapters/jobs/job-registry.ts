import type { ServiceLog } from '../../lib/service-log.ts';
import type { PeriodicJob, QueuedJob } from './job-runner.ts';

export type RegisteredJob = ({ kind: 'periodic' } & PeriodicJob) | ({ kind: 'queued' } & QueuedJob);

/** pg-boss's rule for queue names, kept for both runners so a job moves between them unchanged. */
const JOB_NAME = /^[\w.-]+$/;

/** The jobs a runner knows, shared by both runners: registration rules and the logged run. */
export function createJobRegistry(log: ServiceLog) {
  const jobs = new Map<string, RegisteredJob>();
  let sealed = false;

  function add(job: RegisteredJob): void {
    if (sealed) throw new Error(`job ${job.name} registered after the runner started`);
    if (!JOB_NAME.test(job.name)) throw new Error(`job name ${job.name} may hold only letters, digits, -, _ and .`);
    if (jobs.has(job.name)) throw new Error(`job ${job.name} is registered twice`);
    jobs.set(job.name, job);
  }

  function get(name: string): RegisteredJob {
    const job = jobs.get(name);
    if (!job) throw new Error(`no job named ${name}`);
    return job;
  }

  return {
    addPeriodic: (job: PeriodicJob) => add({ kind: 'periodic', ...job }),
    addQueued: (job: QueuedJob) => add({ kind: 'queued', ...job }),
    get,
    all: () => [...jobs.values()],
    /** No registration after start: every node must run the same set. */
    seal: () => {
      sealed = true;
    },
    /** Runs the handler; a failure is logged with the job's name and thrown on. */
    async run(name: string, data: object = {}): Promise<unknown> {
      const job = get(name);
      try {
        return job.kind === 'periodic' ? await job.run() : await job.run(data);
      } catch (error) {
        log.error({ err: error, job: name }, 'background job failed');
        throw error;
      }
    },
  };
}

export type JobRegistry = ReturnType<typeof createJobRegistry>;
