// vitest globalSetup of the sync project: the command the tests run is the bundle users
// install (bin/cloudvault.mjs takes it while it is newer than the sources), built here once
// before any worker starts when it is missing or stale.
import { ensureSyncClientBuild } from '../../../scripts/ensure-builds.mjs';

export default async function setup() {
  await ensureSyncClientBuild();
}
