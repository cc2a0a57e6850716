// vitest globalSetup: the server process tests (server-process.ts: the faults, shutdown, crash
// safety) run the bundle `npm start` runs; built here when it is missing or older than its
// sources, once before any worker starts (npm test builds it up front, so this finds it fresh).
import { ensureServerBuild } from '../../../../scripts/ensure-builds.mjs';

export default async function setup() {
  await ensureServerBuild();
}
