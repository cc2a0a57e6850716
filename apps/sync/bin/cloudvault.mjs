#!/usr/bin/env node
// The cloudvault command. Installed on its own (npm install -g), it runs the bundle `npm pack`
// made (scripts/bundle.mjs); in the repository, Node 24 runs the TypeScript sources as they are.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/cloudvault.mjs', import.meta.url);
const { main } = await import(existsSync(bundle) ? bundle.href : new URL('../src/cli/main.ts', import.meta.url).href);
process.exitCode = await main(process.argv.slice(2));
