import type { BlobStore } from '../../adapters/blob-store/blob-store.ts';
import type { StorageUpkeepRepository } from './storage-upkeep.repository.ts';

/** Keys per page of either pass: memory holds one page whatever the store and tables hold. */
const PAGE = 500;

/**
 * What db:check reports about the blob store, one line each: objects no row references
 * (files, versions, uploads in progress, the deletion queue) and file or version rows
 * whose blob is missing. Both passes go a page at a time.
 */
export async function* findStoreProblems(
  upkeep: Pick<StorageUpkeepRepository, 'referencedKeys' | 'referencedByRows'>,
  blobs: Pick<BlobStore, 'list' | 'exists'>,
): AsyncIterable<string> {
  for await (const page of blobs.list(PAGE)) {
    const referenced = await upkeep.referencedKeys(page.map((blob) => blob.key));
    for (const blob of page) {
      if (!referenced.has(blob.key)) yield `UNREFERENCED blob ${blob.key} (written ${blob.modifiedAt.toISOString()})`;
    }
  }
  let after = '';
  for (;;) {
    const keys = await upkeep.referencedByRows(after, PAGE);
    for (const key of keys) {
      if (!(await blobs.exists(key))) yield `MISSING blob ${key}, named by a file or version row`;
    }
    if (keys.length < PAGE) return;
    after = keys[keys.length - 1] as string;
  }
}
