// `npm run db:check`: proves every user's storageUsed equals the sum of their stored files
// (and uploads in progress), that every stored blob is referenced by a row and that every
// row's blob exists, and that every file's and folder's name key is its name's (migration
// 2026-12-05-24). A sort key that is missing or not its name's (migration 2026-12-06-26) is
// reported and repaired, as it is derived from the name alone. Exit 0 when consistent, 1
// with one line per problem otherwise.
import { createBlobStore } from '../adapters/blob-store/create-blob-store.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { findStaleNameKeys, repairSortKeys } from '../db/name-keys.ts';
import { findStorageDrift } from '../modules/files/storage-consistency.ts';
import { createStorageUpkeepRepository } from '../modules/storage-upkeep/storage-upkeep.repository.ts';
import { findStoreProblems } from '../modules/storage-upkeep/store-check.ts';

async function main(): Promise<number> {
  const config = loadConfig(process.env);
  const database = openDatabase(config);
  try {
    await migrateToLatest(database.db, database.dialect);
    let problems = 0;
    for (const user of await findStorageDrift(database.db)) {
      console.log(`DRIFT ${user.email} (${user.userId}): storageUsed ${user.storageUsed}, files total ${user.filesTotal}`);
      problems += 1;
    }
    for await (const stale of findStaleNameKeys(database.db)) {
      console.log(`NAME KEY ${stale.table} ${stale.id}: the key stored for ${JSON.stringify(stale.name)} is not its name's`);
      problems += 1;
    }
    for await (const repaired of repairSortKeys(database.db)) {
      const stored = repaired.stored === null ? 'none' : repaired.stored === '' ? 'empty' : "not its name's";
      console.log(`SORT KEY ${repaired.table} ${repaired.id}: the key stored for ${JSON.stringify(repaired.name)} was ${stored}; repaired`);
      problems += 1;
    }
    const blobs = await createBlobStore(config.storage);
    for await (const line of findStoreProblems(createStorageUpkeepRepository(database.db, database.dialect), blobs)) {
      console.log(line);
      problems += 1;
    }
    if (problems === 0) {
      console.log('Storage is consistent: every storageUsed equals the sum of its files, and the store holds exactly the blobs rows name.');
      return 0;
    }
    console.log(`${problems} problem(s). The storage jobs repair drift and remove unreferenced blobs older than their grace period.`);
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
