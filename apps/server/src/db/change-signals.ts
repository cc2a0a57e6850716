import { EventEmitter } from 'node:events';
import type PG from 'pg';
import { CHANGES_CHANNEL, EVERY_ACCOUNT } from './change-journal.ts';

/**
 * Hears the journal's notifications (db/change-journal.ts): the accounts that have new
 * entries, or EVERY_ACCOUNT when a listener may have missed some. A notification only
 * wakes; what changed is always read from the journal, so a spurious one costs a read.
 */
export type ChangeListener = (accounts: readonly string[] | typeof EVERY_ACCOUNT) => void;

/** Stops listening. */
export type StopListening = () => Promise<void>;

const parse = (payload: string | undefined): readonly string[] | typeof EVERY_ACCOUNT =>
  !payload || payload === EVERY_ACCOUNT ? EVERY_ACCOUNT : payload.split(',');

/**
 * SQLite: the journal's `pg_notify` is a function of this connection that tells this
 * process. It runs inside the writing transaction; a woken reader's query waits for the
 * one connection until that transaction ends, so it reads what was committed (and a
 * rolled-back write only costs it a read).
 */
export function sqliteChangeSignals(database: { function(name: string, fn: (channel: unknown, payload: unknown) => null): unknown }): {
  listen(listener: ChangeListener): StopListening;
} {
  const events = new EventEmitter().setMaxListeners(0);
  database.function('pg_notify', (channel, payload) => {
    if (channel === CHANGES_CHANNEL) setImmediate(() => events.emit('changes', parse(String(payload))));
    return null;
  });
  return {
    listen(listener) {
      events.on('changes', listener);
      return async () => void events.off('changes', listener);
    },
  };
}

/** How long a lost listening connection waits before it tries again, at most. */
const MAX_RECONNECT_DELAY_MS = 5_000;

/**
 * PostgreSQL: one connection of its own per process LISTENs on the channel; PostgreSQL
 * delivers a notification to every node when the transaction that sent it commits. When
 * the connection drops it comes back with a growing delay, then wakes every listener,
 * since a notification may have been missed meanwhile.
 */
export function postgresChangeSignals(pg: typeof PG, connectionString: string, onError: (error: Error) => void) {
  return {
    listen(listener: ChangeListener): StopListening {
      let client: PG.Client | undefined;
      let stopped = false;
      let delay = 100;
      let timer: NodeJS.Timeout | undefined;
      const reconnect = () => {
        if (stopped || timer) return;
        timer = setTimeout(() => {
          timer = undefined;
          void connect();
        }, delay);
        delay = Math.min(delay * 2, MAX_RECONNECT_DELAY_MS);
      };
      const connect = async (isFirst = false) => {
        const next = new pg.Client({ connectionString });
        client = next;
        next.on('error', (error) => {
          onError(error);
          void next.end().catch(() => undefined);
          reconnect();
        });
        next.on('notification', (message) => {
          if (message.channel === CHANGES_CHANNEL) listener(parse(message.payload));
        });
        try {
          await next.connect();
          // Stopped while connecting: this connection must not outlive the stop.
          if (stopped) return void (await next.end());
          await next.query(`LISTEN ${CHANGES_CHANNEL}`);
          delay = 100;
          if (!isFirst) listener(EVERY_ACCOUNT);
        } catch (error) {
          onError(error as Error);
          void next.end().catch(() => undefined);
          reconnect();
        }
      };
      void connect(true);
      return async () => {
        stopped = true;
        clearTimeout(timer);
        await client?.end().catch(() => undefined);
      };
    },
  };
}
