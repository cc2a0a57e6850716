import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMemory, startScriptServer } from '../lib/processes.ts';
import type { Ceiling } from './server.ts';

const SCRIPT = fileURLToPath(new URL('./bare-node-server.ts', import.meta.url));

/**
 * The bare Node server in its own process, so its memory is its own. It runs under the
 * same tsx loader as our server, so the loader's share of RSS is the same on both sides.
 */
export async function startBareNode(root: string, filesDir: string): Promise<Ceiling> {
  const uploadDir = path.join(root, 'bare-node', 'uploads');
  await mkdir(uploadDir, { recursive: true });
  const { url, pid, stop } = await startScriptServer(SCRIPT, { FILES_DIR: filesDir, UPLOAD_DIR: uploadDir });
  return {
    name: 'bare node',
    url,
    fileUrl: (name) => `${url}/files/${encodeURIComponent(name)}`,
    uploadUrl: (name) => `${url}/upload/${encodeURIComponent(name)}`,
    uploadedPath: (name) => path.join(uploadDir, name),
    memory: () => readMemory(pid),
    stop,
  };
}
