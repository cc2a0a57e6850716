// npm run test:sync-soak: the randomized sync test at length, fresh seeds each time. The
// defaults (20 seeds of 300 steps, some 6,000 steps with faults) take about two hours
// on two cores; SYNC_SEEDS and SYNC_OPS set others, SYNC_SEED replays one seed.
import { spawn } from 'node:child_process';

const env = { SYNC_SEEDS: '20', SYNC_OPS: '300', ...process.env };
const child = spawn('npx', ['vitest', 'run', '--project', 'sync', 'apps/sync/test/randomized'], { stdio: 'inherit', env });
child.on('close', (code) => process.exit(code ?? 1));
