import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createContainer } from './container.ts';
import { startPeriodicTask } from './lib/periodic-task.ts';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

// main.ts sits one level below apps/server both as source (src/) and as bundle (dist/),
// so these resolve the same in development and in production.
const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));
const DEFAULT_PLANS_FILE = fileURLToPath(new URL('../config/plans.json', import.meta.url));

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig({ WEB_DIST_DIR: DEFAULT_WEB_DIST, PLANS_FILE: DEFAULT_PLANS_FILE, ...process.env });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  const container = await createContainer(config);
  const app = await buildApp(container);
  // Background work, each on its own clock; none keeps the process alive on its own.
  const backgroundTasks: Array<{ name: string; intervalMs: number; run: () => Promise<unknown> }> = [
    { name: 'trash and version retention', intervalMs: HOUR, run: async () => ({ trash: await container.trash.purgeExpired(), versions: await container.versions.purgeExpired() }) },
    { name: 'daily storage figures', intervalMs: HOUR, run: () => container.analytics.snapshotStorage() },
    { name: 'subscription renewals', intervalMs: HOUR, run: () => container.billing.runRenewals() },
    { name: 'mail delivery', intervalMs: MINUTE, run: () => container.mail.deliverDue() },
    // A lease's length: what a dead node reserved goes back within two leases.
    { name: 'storage reconciler', intervalMs: config.uploadLeaseMs, run: () => container.storageUpkeep.reconcile() },
    { name: 'blob deletion', intervalMs: MINUTE, run: () => container.storageUpkeep.deleteQueuedBlobs() },
    { name: 'storage sweeper', intervalMs: HOUR, run: () => container.storageUpkeep.sweep() },
  ];
  const stopTasks = backgroundTasks.map((task) => startPeriodicTask({ ...task, log: app.log }));
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    for (const stop of stopTasks) stop();
    await app.close();
    await container.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Mail goes to ${container.mailer.describe}`);
  app.log.info(`Transfers use ${container.transferPaths}`);
  app.log.info(`CloudVault is ready at ${config.publicUrl} (data in ${config.dataDir})`);
}

main().catch((error: unknown) => {
  console.error(`CloudVault could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
