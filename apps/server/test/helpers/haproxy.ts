import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';
import { waitFor } from './wait-for.ts';

/** Debian's haproxy; HAPROXY_PATH points elsewhere. */
export const HAPROXY = process.env.HAPROXY_PATH || '/usr/sbin/haproxy';

/** Whether haproxy is on this machine (`apt-get install -y haproxy`). */
export const HAPROXY_INSTALLED = spawnSync(HAPROXY, ['-v'], { stdio: 'ignore' }).status === 0;

export interface Backend {
  name: string;
  port: number;
}

export interface HaproxyOptions {
  backends: Backend[];
  /** Where it listens; a free port unless given (a cluster's PUBLIC_URL is fixed before its nodes start). */
  port?: number;
  /** Takes a node out while its `GET /api/health` fails, as a deployment's balancer does. */
  healthChecks?: boolean;
}

/**
 * The balancer as docs/operations.md#running-several-nodes shows it: plain round robin with no
 * stickiness, so consecutive requests land on different nodes; with health checks a node is
 * taken out after two failed checks a second apart and back after one good one; a request
 * that cannot reach its node (a dead one not yet marked down) is sent to another.
 */
export function haproxyConfig(options: { port: number; backends: Backend[]; healthChecks?: boolean; statsSocket?: string }): string {
  return [
    'global',
    '    maxconn 1024',
    ...(options.statsSocket ? [`    stats socket ${options.statsSocket} mode 600 level admin`] : []),
    '',
    'defaults',
    '    mode http',
    '    option forwardfor',
    '    option redispatch 1',
    '    retries 3',
    '    timeout connect 5s',
    '    timeout http-request 30s',
    '    # Uploads and downloads may stream for a long time; the nodes close connections idle for 120 s.',
    '    timeout client 130s',
    '    timeout server 130s',
    '    timeout queue 30s',
    '    timeout check 5s',
    '',
    'frontend cloudvault',
    `    bind 127.0.0.1:${options.port}`,
    '    default_backend nodes',
    '',
    'backend nodes',
    '    balance roundrobin',
    ...(options.healthChecks
      ? [
          '    option httpchk',
          '    http-check send meth GET uri /api/health',
          '    http-check expect status 200',
          '    default-server check inter 1s fall 2 rise 1',
        ]
      : []),
    ...options.backends.map((backend) => `    server ${backend.name} 127.0.0.1:${backend.port}`),
    '',
  ].join('\n');
}

/** A running haproxy, its address, and what it thinks of each node. */
export interface Balancer {
  url: string;
  port: number;
  /** `UP`, `DOWN`, … per server name, from haproxy's stats socket (`no check` without health checks). */
  serverStates(): Promise<Record<string, string>>;
  /** Resolves once haproxy's health checks see `name` in `state` (UP or DOWN). */
  waitForServer(name: string, state: 'UP' | 'DOWN'): Promise<void>;
  stop(): Promise<void>;
}

/** Starts haproxy in the foreground and resolves once it has loaded every backend. */
export async function startHaproxy(options: HaproxyOptions): Promise<Balancer> {
  const port = options.port ?? (await freePort());
  const directory = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-haproxy-'));
  const configFile = path.join(directory, 'haproxy.cfg');
  const statsSocket = path.join(directory, 'admin.sock');
  await writeFile(configFile, haproxyConfig({ port, backends: options.backends, healthChecks: options.healthChecks, statsSocket }));
  let output = '';
  // -db: stay in the foreground, so the test holds the process and stops it by its PID.
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  async function serverStates(): Promise<Record<string, string>> {
    const csv = await statsCommand(statsSocket, 'show stat');
    const states: Record<string, string> = {};
    for (const line of csv.split('\n')) {
      const [proxy, server, ...fields] = line.split(',');
      // Column 18 (0-based 17) of `show stat` is the status.
      if (proxy === 'nodes' && server && server !== 'BACKEND') states[server] = fields[15] ?? '';
    }
    return states;
  }

  const balancer: Balancer = {
    url: `http://127.0.0.1:${port}`,
    port,
    serverStates,
    async waitForServer(name, state) {
      await waitFor(`haproxy to see ${name} ${state}`, async () => (await serverStates())[name]?.startsWith(state));
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
  try {
    await waitFor(
      'haproxy to open its stats socket',
      async () => {
        if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
        return Object.keys(await serverStates()).length === options.backends.length;
      },
      15_000,
    );
  } catch (error) {
    await balancer.stop();
    throw error;
  }
  return balancer;
}

/** One command on haproxy's stats socket; the answer is everything it writes before closing. */
function statsCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.createConnection(socketPath, () => socket.end(`${command}\n`));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}
