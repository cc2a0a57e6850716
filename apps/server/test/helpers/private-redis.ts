import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './free-port.ts';
import { waitFor } from './wait-for.ts';

/**
 * A redis-server of a test's own, a child process on a free port with nothing saved, so a
 * fault test can kill and restart it without touching the Redis other tests share.
 */
export interface PrivateRedis {
  url: string;
  /** Starts it again on the same port (empty: it saves nothing). */
  start(): Promise<void>;
  /** Kills the process (SIGKILL, as a crash) and waits for its exit. */
  kill(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open and nothing is answered. */
  pause(): void;
  /** Lets a frozen process go on (SIGCONT). */
  resume(): void;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const redis: PrivateRedis = {
    url,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
        { stdio: 'ignore' },
      );
      await waitFor(
        'the private Redis to answer',
        async () => {
          const probe = new Redis(url, {
            lazyConnect: true,
            maxRetriesPerRequest: 0,
            enableOfflineQueue: false,
            retryStrategy: () => null,
          });
          // A refused connection while it starts is expected; the next poll tries again.
          probe.on('error', () => {});
          try {
            await probe.connect();
            return (await probe.ping()) === 'PONG';
          } finally {
            probe.disconnect();
          }
        },
        10_000,
        50,
      );
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async kill() {
      const running = child;
      // A frozen process takes SIGKILL too; SIGCONT first lets it be reaped at once.
      running?.kill('SIGCONT');
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
  };
  await redis.start();
  return redis;
}
