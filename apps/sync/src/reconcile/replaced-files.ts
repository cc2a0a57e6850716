import type { BaseEntry, RemoteEntry, Snapshot } from '../model.ts';

/**
 * The base as the server's ids now stand. On a plan without versions, new content uploaded
 * over a file (`conflict: replace`, from this client or any other) sends the old file to Trash
 * and gives the new one a new id at the same path: the same file to a person. A file the
 * journal knows whose id the server no longer has anywhere, while a file the journal does not
 * know stands at its path, is taken to be that file replaced, so the comparison reads a
 * change of content (a download, or a conflict where the server keeps the name), not a
 * deletion beside a new file. Entries that need no change are shared, not copied.
 */
export function followReplacedFiles(base: Snapshot<BaseEntry>, remote: Snapshot<RemoteEntry>): Snapshot<BaseEntry> {
  const remoteIds = new Set<string>();
  for (const entry of remote.values()) remoteIds.add(entry.id);
  const knownIds = new Set<string>();
  for (const entry of base.values()) knownIds.add(entry.remoteId);

  let followed: Snapshot<BaseEntry> | undefined;
  for (const entry of base.values()) {
    if (entry.kind !== 'file' || remoteIds.has(entry.remoteId)) continue;
    const standing = remote.get(entry.path);
    if (!standing || standing.kind !== 'file' || knownIds.has(standing.id)) continue;
    followed ??= new Map(base);
    followed.set(entry.path, { ...entry, remoteId: standing.id });
  }
  return followed ?? base;
}
