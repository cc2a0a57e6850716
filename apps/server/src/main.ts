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
  ];
  const stopTasks = backgroundTasks.map((task) => startPeriodicTask({ ...task, log: app.log }));
  // A node leaving (docs/decisions/0020-running-several-nodes.md): background work stops,
  // new requests and readiness checks are answered 503, running transfers finish up to the
  // grace period, then the server and the database close.
  const stopBackgroundWork = async () => {
    for (const stop of stopTasks) stop();
  };
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await Promise.all([stopBackgroundWork(), app.closeGracefully(config.shutdownGraceMs)]);
    await container.close();
    app.log.info('shut down');
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
