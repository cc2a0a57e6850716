import type { Memory } from '../lib/processes.ts';

/**
 * The servers measured; 'ours, after a write' is ours again, each listing after a change
 * (bench/scenarios/listing.ts); 'cp -r' is no server but the copy's ceiling (bench/scenarios/folder-copy.ts).
 */
export type ServerName = 'ours' | 'ours, after a write' | 'nginx' | 'bare node' | 'bare fastify' | 'cp -r';

/** A server under measurement, running in its own process(es). */
export interface BenchServer {
  name: ServerName;
  url: string;
  /** VmRSS and VmHWM of the process(es) that serve, not of any wrapper. */
  memory(): Promise<Memory | null>;
  stop(): Promise<void>;
}

/** nginx or the bare Node server: the same files under /files/, raw PUTs under /upload/. */
export interface Ceiling extends BenchServer {
  name: 'nginx' | 'bare node';
  fileUrl(name: string): string;
  uploadUrl(name: string): string;
  /** Where a PUT to uploadUrl(name) lands on disk. */
  uploadedPath(name: string): string;
}
