// `npm start`: build what is missing or stale, then run ONE server process that applies
// migrations and serves both /api and the web app.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureServerBuild, ensureWebBuild, SERVER_BUNDLE, SERVER_NODE_FLAGS } from './ensure-builds.mjs';

ensureWebBuild();
await ensureServerBuild();
// Source maps for the bundle alone, not every package's (server-source-maps.mjs).
const sourceMaps = fileURLToPath(new URL('./server-source-maps.mjs', import.meta.url));
const server = spawn(process.execPath, ['--import', sourceMaps, ...SERVER_NODE_FLAGS, SERVER_BUNDLE], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
