// `npm run db:check`: proves every user's storageUsed equals the sum of their stored
// files. Exit 0 when consistent, 1 with one line per drifting user otherwise.
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { findStorageDrift } from '../modules/files/storage-consistency.ts';

async function main(): Promise<number> {
  const config = loadConfig(process.env);
  const database = openDatabase(config);
  try {
    await migrateToLatest(database.db, database.dialect);
    const drift = await findStorageDrift(database.db);
    if (drift.length === 0) {
      console.log('Storage is consistent: every storageUsed equals the sum of its files.');
      return 0;
    }
    for (const user of drift) {
      console.log(`DRIFT ${user.email} (${user.userId}): storageUsed ${user.storageUsed}, files total ${user.filesTotal}`);
    }
    console.log(`${drift.length} user(s) drift. Uploads in progress hold reservations: run again when idle before repairing.`);
    return 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error);
    process.exit(2);
  },
);
