// `npm start`: build what is missing or stale, then run ONE server process that applies
// migrations and serves both /api and the web app.
import { spawn } from 'node:child_process';
import { ensureServerBuild, ensureWebBuild, SERVER_BUNDLE, SERVER_NODE_FLAGS } from './ensure-builds.mjs';

ensureWebBuild();
await ensureServerBuild();
const server = spawn(process.execPath, ['--enable-source-maps', ...SERVER_NODE_FLAGS, SERVER_BUNDLE], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
