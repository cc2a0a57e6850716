import type { CompiledQuery, Kysely } from 'kysely';

/**
 * A query Kysely builds and compiles once, run with each call's values bound where the
 * placeholders it was built with went. Building and compiling a query again on every call
 * cost about 5 % of a small signed-in request's CPU (docs/decisions/0034-request-cost.md,
 * addendum): worth it for the queries every request runs. `build` receives one
 * placeholder per parameter it declares, in order, and must use each as a value (a bound parameter),
 * never in the SQL's text: they are unique strings, recognised among the compiled
 * parameters, so their order in the SQL does not matter. The SQL and any other value are
 * fixed at start-up. Both dialects: the compiled text has `?` or `$n` as the database wants.
 */
export function compiledOnce<DB, Row, Args extends unknown[]>(
  db: Kysely<DB>,
  build: (...placeholders: Args) => CompiledQuery<Row>,
): (...args: Args) => Promise<Row[]> {
  // One per parameter `build` declares (its length: no rest or default parameters there).
  const placeholders = Array.from({ length: build.length }, (_, index) => `\u0000placeholder ${index}\u0000`);
  const compiled = build(...(placeholders as Args));
  const slots = compiled.parameters.map((value) => (typeof value === 'string' ? placeholders.indexOf(value) : -1));
  if (placeholders.some((_, index) => !slots.includes(index)))
    throw new Error(`compiledOnce: an argument is not a bound parameter of ${compiled.sql}`);
  return async (...args) => {
    const parameters = compiled.parameters.map((value, index) => {
      const slot = slots[index] ?? -1;
      return slot === -1 ? value : args[slot];
    });
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}
