import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createFailureLimiter } from './lib/failure-limiter.ts';
import { hashPassword, verifyPassword } from './lib/passwords.ts';
import { loadOrCreateSecret } from './lib/secrets.ts';
import { createAccountsRepository } from './modules/accounts/accounts.repository.ts';
import { createAccountsService } from './modules/accounts/accounts.service.ts';
import { createSessionTokens } from './modules/accounts/session-tokens.ts';
import { loadPlanCatalogue } from './modules/plans/plans.catalogue.ts';

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Everything the routes need, wired once. Tests pass their own clock. */
export interface Container {
  config: Config;
  database: DatabaseHandle;
  accounts: ReturnType<typeof createAccountsService>;
  close(): Promise<void>;
}

export async function createContainer(config: Config, options: { clock?: Clock } = {}): Promise<Container> {
  const clock = options.clock ?? systemClock;
  const plans = loadPlanCatalogue(config.plansFile);
  const jwtSecret = config.jwtSecret ?? (await loadOrCreateSecret(config.dataDir, 'jwt-secret'));
  const database = openDatabase(config);
  try {
    await migrateToLatest(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }

  const accounts = createAccountsService({
    accounts: createAccountsRepository(database.db),
    tokens: createSessionTokens(jwtSecret, clock),
    passwords: { hash: hashPassword, verify: verifyPassword },
    plans,
    clock,
    loginFailuresByEmail: createFailureLimiter({ max: 10, windowMs: FIFTEEN_MINUTES, clock }),
    loginFailuresByIp: createFailureLimiter({ max: 100, windowMs: FIFTEEN_MINUTES, clock }),
  });

  return { config, database, accounts, close: () => database.close() };
}
