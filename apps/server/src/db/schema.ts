/**
 * Table types as Kysely sees them. Portable storage choices (docs/decisions/0002):
 * timestamps are ISO 8601 UTC strings, booleans are integers 0/1, sizes are bigint
 * read back as numbers on both SQLite and PostgreSQL.
 */
export interface UsersTable {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  plan_id: string;
  storage_used: number;
  two_factor_enabled: number;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
  ip: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
}
