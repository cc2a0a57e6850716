#!/usr/bin/env node
// The cloudvault command: the bundle (scripts/bundle.mjs) when it is there and not older than
// the sources beside it, else (in the repository, before a build) the TypeScript sources,
// which Node 24 runs as they are. Installed on its own, only the bundle is there.
import { existsSync, readdirSync, statSync } from 'node:fs';

const bundle = new URL('../dist/cloudvault.mjs', import.meta.url);
const sources = new URL('../src/', import.meta.url);

/** The newest modification time under `folder` (a few dozen files: a few milliseconds). */
function newestChange(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
  }
  return newest;
}

const bundleIsCurrent = existsSync(bundle) && (!existsSync(sources) || statSync(bundle).mtimeMs > newestChange(sources));
const { main } = await import(bundleIsCurrent ? bundle.href : new URL('cli/main.ts', sources).href);
process.exitCode = await main(process.argv.slice(2));
