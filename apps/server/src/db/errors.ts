/** True when an insert or update broke a unique index, on SQLite or PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** SQLSTATE classes and codes that mean the database is away, not that the statement was wrong. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** node-postgres reports a dropped or timed-out connection by message only. */
const UNAVAILABLE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * True when a query failed because PostgreSQL could not be reached or went away (a restart,
 * a crash, no free connection slot): the request may succeed a few seconds later, so it is
 * answered 503, not 500 (docs/decisions/0041).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_SOCKET_CODES.has(code)))
    return true;
  if (UNAVAILABLE_MESSAGES.test(error.message)) return true;
  // Node's net layer folds the refusals of every address of a host into one AggregateError.
  return error instanceof AggregateError && error.errors.some(isDatabaseUnavailable);
}
