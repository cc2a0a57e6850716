import { execFile, spawn } from 'node:child_process';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../apps/server/test/helpers/free-port.ts';
import { captureOutput, childPids, readMemorySum, stopChild, waitUntilServing } from '../lib/processes.ts';
import type { Ceiling } from './server.ts';

/** Debian's nginx-light (it has the WebDAV module). */
export const NGINX = '/usr/sbin/nginx';

export interface NginxCeiling extends Ceiling {
  version: string;
}

/**
 * The ceiling as a well-tuned static server reaches it: sendfile for downloads, a WebDAV
 * PUT location for uploads (nginx spools the body to client_body_temp_path, then renames
 * it into place, so both sit on the same file system), the pre-built zip as a plain file.
 */
function config(root: string, port: number, filesDir: string, uploadDir: string): string {
  return `user root;
daemon off;
master_process on;
worker_processes 2;
pid ${root}/nginx.pid;
error_log ${root}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  default_type application/octet-stream;
  types { application/zip zip; application/json json; }
  client_body_temp_path ${root}/client_body;
  proxy_temp_path ${root}/proxy;
  fastcgi_temp_path ${root}/fastcgi;
  uwsgi_temp_path ${root}/uwsgi;
  scgi_temp_path ${root}/scgi;
  server {
    listen 127.0.0.1:${port};
    location /files/ { alias ${filesDir}/; }
    location /upload/ {
      alias ${uploadDir}/;
      dav_methods PUT;
      client_max_body_size 0;
      client_body_temp_path ${uploadDir}-spool;
    }
  }
}
`;
}

async function stopLeftoverWorker(pid: number): Promise<void> {
  try {
    if ((await readFile(`/proc/${pid}/cmdline`, 'utf8')).startsWith('nginx')) process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone, as it should be.
  }
}

/** Starts nginx on a free port; null when it is not installed (the caller says so loudly). */
export async function startNginx(root: string, filesDir: string): Promise<NginxCeiling | null> {
  try {
    await access(NGINX);
  } catch {
    return null;
  }
  const { stderr } = await promisify(execFile)(NGINX, ['-v']);
  const dir = path.join(root, 'nginx');
  const uploadDir = path.join(dir, 'uploads');
  await mkdir(uploadDir, { recursive: true });
  const port = await freePort();
  const configPath = path.join(dir, 'nginx.conf');
  await writeFile(configPath, config(dir, port, filesDir, uploadDir));
  // -e: the error log before the config is read, which would otherwise be /var/log/nginx.
  const child = spawn(NGINX, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = captureOutput(child);
  const url = `http://127.0.0.1:${port}`;
  const ceiling: NginxCeiling = {
    name: 'nginx',
    url,
    version: stderr.trim().replace(/^nginx version: /, ''),
    fileUrl: (name) => `${url}/files/${encodeURIComponent(name)}`,
    uploadUrl: (name) => `${url}/upload/${encodeURIComponent(name)}`,
    uploadedPath: (name) => path.join(uploadDir, name),
    // The master only forks and waits; the workers serve.
    memory: async () => readMemorySum(await childPids(child.pid ?? -1)),
    // SIGTERM is nginx's fast shutdown: the master stops its workers, then exits. Should
    // the master need SIGKILL, its workers would outlive it: they are stopped by PID too.
    stop: async () => {
      const workers = await childPids(child.pid ?? -1);
      await stopChild(child, 'SIGTERM');
      await Promise.all(workers.map(stopLeftoverWorker));
    },
  };
  try {
    await waitUntilServing(`${url}/`, child, output);
  } catch (error) {
    await ceiling.stop();
    throw error;
  }
  return ceiling;
}
