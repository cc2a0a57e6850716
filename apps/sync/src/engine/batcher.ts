/**
 * Gathers the transfers a pass starts in the same turn of the event loop into one call, so
 * remote/ can send hundreds of small files in one request; each caller still gets its own
 * result.
 */
import type { TransferResult } from './ports.ts';

/** Adds one item; resolves with its result once its batch is done. */
export type Batcher<T> = (item: T) => Promise<TransferResult>;

/** A batcher over `send` (one result per item, in order), flushing on the next turn or at `maxItems`. */
export function createBatcher<T>(send: (items: T[]) => Promise<TransferResult[]>, maxItems = 1000): Batcher<T> {
  let pending: { item: T; resolve: (result: TransferResult) => void; reject: (error: unknown) => void }[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    send(batch.map((entry) => entry.item)).then(
      (results) => batch.forEach((entry, index) => entry.resolve(results[index] ?? { error: 'no answer for this file' })),
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    );
  };
  return (item) =>
    new Promise((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ item, resolve, reject });
      if (pending.length >= maxItems) flush();
    });
}
