// `npm run admin -- grant <email>` / `npm run admin -- revoke <email>`: keeps the operator
// role in the database (docs/decisions/0029-operator-console.md), beside ADMIN_EMAILS, which
// needs no command. Exit 0 when done, 1 for an unknown address, 2 for a usage or configuration error.
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { systemClock } from '../lib/clock.ts';
import { AppError } from '../lib/errors.ts';
import { createAccountsRepository } from '../modules/accounts/accounts.repository.ts';
import { createOperatorRoles } from '../modules/admin/operator-roles.service.ts';

const USAGE = 'Usage: npm run admin -- grant <email> | npm run admin -- revoke <email>';

async function main(args: string[]): Promise<number> {
  const [command, email, ...rest] = args;
  if ((command !== 'grant' && command !== 'revoke') || !email || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  const database = openDatabase(config);
  try {
    await migrateToLatest(database.db, database.dialect);
    const roles = createOperatorRoles({ users: createAccountsRepository(database.db), clock: systemClock });
    await roles.setRole(email, command === 'grant' ? 'admin' : 'user');
    console.log(
      command === 'grant' ? `${email} is an operator now.` : `${email} is no longer an operator by role (ADMIN_EMAILS still applies).`,
    );
    return 0;
  } catch (error) {
    if (error instanceof AppError && error.status === 404) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error);
    process.exit(2);
  },
);
