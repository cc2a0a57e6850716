import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledOnce } from './compiled-query.ts';

interface Tables {
  items: { id: string; owner: string; rank: number };
}

const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
afterAll(() => db.destroy());

describe('compiledOnce', () => {
  it("binds each call's arguments where its placeholders went, whatever their order and however often, keeping fixed values", async () => {
    await db.schema.createTable('items').addColumn('id', 'text').addColumn('owner', 'text').addColumn('rank', 'integer').execute();
    await db
      .insertInto('items')
      .values([
        { id: 'a', owner: 'x', rank: 1 },
        { id: 'b', owner: 'x', rank: 2 },
        { id: 'c', owner: 'y', rank: 3 },
      ])
      .execute();
    const ranked = compiledOnce(db, (owner: string, above: number) =>
      db
        .selectFrom('items')
        .select('id')
        .where('rank', '>', above)
        .where('rank', '<', 10)
        .where((eb) => eb.or([eb('owner', '=', owner), eb('id', '=', owner)]))
        .orderBy('id')
        .compile(),
    );
    expect(await ranked('x', 0)).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(await ranked('x', 1)).toEqual([{ id: 'b' }]);
    expect(await ranked('c', 0)).toEqual([{ id: 'c' }]);
  });

  it('refuses a query that does not bind an argument as a parameter', () => {
    expect(() => compiledOnce(db, (id: string) => sql<{ id: string }>`select ${sql.raw(`'${id}'`)} as id`.compile(db))).toThrow(
      /not a bound parameter/,
    );
  });
});
