// First: sets the threadpool's size before anything starts the pool.
import './threadpool.ts';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createContainer } from './container.ts';

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
  // A node leaving (docs/decisions/0020-running-several-nodes.md): background jobs stop
  // (running ones finish or are released to run again), new requests and readiness checks
  // are answered 503, running transfers finish up to the grace period, then the server and
  // the database close.
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await Promise.all([container.jobs.stop(), app.closeGracefully(config.shutdownGraceMs)]);
    await container.close();
    app.log.info('shut down');
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  await container.jobs.start();
  app.log.info(`Background jobs run ${container.jobs.driver === 'pg-boss' ? 'on pg-boss, shared by every node' : 'in this process'}`);
  app.log.info(`Mail goes to ${container.mailer.describe}`);
  app.log.info(`Transfers use ${container.transferPaths}`);
  if (config.storage.driver === 's3') {
    app.log.info(
      `Single-file downloads ${config.storage.presignedDownloads ? 'redirect to presigned URLs of the bucket' : 'stream through this server'} (S3_PRESIGNED_DOWNLOADS)`,
    );
  }
  app.log.info(`CloudVault is ready at ${config.publicUrl} (data in ${config.dataDir})`);
}

main().catch((error: unknown) => {
  console.error(`CloudVault could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
