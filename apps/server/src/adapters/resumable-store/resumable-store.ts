import type { DataStore } from '@tus/utils';

/**
 * Where tus uploads keep their bytes until finished (docs/decisions/0025-resumable-uploads.md):
 * a @tus/server DataStore laid out so that an upload's bytes end under its blob key where
 * the BlobStore reads them, and so that the storage jobs' cleanup of an unfinished upload
 * of that key (listUnfinished, delete) also removes a tus upload's.
 */
export interface ResumableStore {
  datastore: DataStore;
  /** The datastore's id of the upload whose URL id, and blob key, is `key`. */
  storeIdOf(key: string): string;
  /** The inverse of storeIdOf. */
  keyOf(storeId: string): string;
  /**
   * Whether all `length` bytes are in: still in the store, or already moved under the blob
   * key by a finishing run that did not get to list the file (its node died).
   */
  isComplete(key: string, length: number): Promise<boolean>;
  /** Puts a finished upload's `length` bytes under its blob key; safe to run again after a crash. */
  finish(key: string, length: number): Promise<void>;
  /** Removes everything the store keeps for an upload (bytes not yet finished, info files); safe to repeat. */
  remove(key: string): Promise<void>;
}
