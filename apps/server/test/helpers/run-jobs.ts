// Runs background jobs once, by name, in a process of its own over a server's data (its
// environment): a node's job that a test can SIGKILL midway, or run to convergence.
// Usage: node --import tsx apps/server/test/helpers/run-jobs.ts <job name>...
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';

const container = await createContainer(loadConfig(process.env));
try {
  for (const name of process.argv.slice(2)) {
    console.log(`job ${name} started`);
    console.log(`job ${name}: ${JSON.stringify(await container.jobs.runNow(name, {}))}`);
  }
} finally {
  await container.close();
}
process.exit(0);
