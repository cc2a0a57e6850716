import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Whether Debian's haproxy is on this machine (`apt-get install -y haproxy`). */
export const HAPROXY_INSTALLED = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;

/** A free port on 127.0.0.1, for a process that binds it itself. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Resolves once something accepts connections on the port, or rejects when the process exits first. */
async function accepting(port: number, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode} before listening`);
    const connected = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1' }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (connected) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface TestHaproxy {
  port: number;
  stop(): Promise<void>;
}

/** Starts haproxy in HTTP mode on a random port, balancing round robin over the given servers' ports. */
export async function startHaproxy(serverPorts: number[]): Promise<TestHaproxy> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-haproxy-'));
  const port = await freePort();
  const config = [
    'global',
    '  maxconn 256',
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 60s',
    '  timeout server 60s',
    'frontend uploads',
    `  bind 127.0.0.1:${port}`,
    '  default_backend cloudvault',
    'backend cloudvault',
    '  balance roundrobin',
    ...serverPorts.map((serverPort, index) => `  server node${index} 127.0.0.1:${serverPort}`),
    '',
  ].join('\n');
  const configFile = path.join(dir, 'haproxy.cfg');
  await writeFile(configFile, config);
  let output = '';
  const child = spawn('haproxy', ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await accepting(port, child);
  } catch (error) {
    throw new Error(`${(error as Error).message}:\n${output}`);
  }
  return {
    port,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
