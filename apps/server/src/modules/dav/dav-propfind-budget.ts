import type { DavLockRow } from './dav.repository.ts';
import { activeLockXml } from './dav-properties.ts';
import { lockCovers, presentLock } from './dav-locks.service.ts';
import { pathKey } from './dav-paths.ts';
import type { DavResource } from './dav.service.ts';

/** The numbers a listing's budget is worked out from, read before its answer starts. */
export interface ListingFigures {
  /** Whether the answer lists the collection's members too (Depth: 1). */
  listsMembers: boolean;
  /** UTF-8 bytes of the dead properties the answer shows (0 when none are asked for). */
  deadBytes: number;
  /** How many members the answer lists. */
  memberCount: number;
  /** The account's unexpired locks when lock discovery is asked for, else none. */
  locks: readonly DavLockRow[];
}

const lockBytes = (lock: DavLockRow) => Buffer.byteLength(activeLockXml(presentLock(lock)));
const parentKey = (key: string) => key.slice(0, key.lastIndexOf('/')) || '/';

/**
 * What dead properties and lock discovery add to a PROPFIND answer, in UTF-8 bytes. A lock
 * shows in the discovery of every resource it covers, so a depth-infinity lock above a
 * listed folder counts once per member: that repetition is what the bound is for.
 */
export function propfindExtraBytes(root: DavResource, figures: ListingFigures): number {
  let bytes = figures.deadBytes;
  if (figures.locks.length === 0) return bytes;
  const rootKey = pathKey(root.path);
  for (const lock of figures.locks) {
    if (lockCovers(lock, rootKey)) bytes += lockBytes(lock);
    if (!figures.listsMembers) continue;
    // Covering the listed collection with depth infinity covers each member; a lock on a member covers that one.
    if (lock.depth_infinity === 1 && lockCovers(lock, rootKey)) bytes += lockBytes(lock) * figures.memberCount;
    else if (lock.path_key !== rootKey && parentKey(lock.path_key) === rootKey) bytes += lockBytes(lock);
  }
  return bytes;
}
