import { fileURLToPath } from 'node:url';
import { readMemory, startScriptServer } from '../lib/processes.ts';
import type { BenchServer } from './server.ts';

const SCRIPT = fileURLToPath(new URL('./bare-fastify-server.ts', import.meta.url));

export interface BareFastify extends BenchServer {
  name: 'bare fastify';
  listingUrl: string;
  pid: number;
}

/** The bare Fastify route in its own process, serving the JSON in `listingFile` from memory. */
export async function startBareFastify(listingFile: string): Promise<BareFastify> {
  const { url, pid, stop } = await startScriptServer(SCRIPT, { LISTING_FILE: listingFile });
  return { name: 'bare fastify', url, listingUrl: `${url}/listing`, pid, memory: () => readMemory(pid), stop };
}
