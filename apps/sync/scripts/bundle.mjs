// One file for `npm install -g`: the client and the contract's name rules it imports, bundled;
// better-sqlite3 (a native module with its prebuilt binaries) stays a dependency.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('../src/cli/main.ts', import.meta.url).pathname],
  outfile: new URL('../dist/cloudvault.mjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  packages: 'external',
  alias: { '@cloudvault/contract': new URL('../../../packages/contract/src', import.meta.url).pathname },
});
