import type { CloudVaultClient } from '../lib/cloudvault-api.ts';
import type { OurServer } from '../servers/ours.ts';
import type { GrowthConfig } from './growth-config.ts';

/** The servers the growth series run against. */
export interface GrowthContext {
  config: GrowthConfig;
  /** The default set-up: SQLite and local blobs. */
  sqlite: { server: OurServer; client: CloudVaultClient };
  /** The same bundle on a throwaway PostgreSQL database; `databaseUrl` is for seeding rows. */
  postgres: { server: OurServer; client: CloudVaultClient; databaseUrl: string; operatorToken: string } | null;
  log(message: string): void;
}
