/**
 * One way to read an item's size, mtime and identity from the disk, shared by the scan,
 * placement and the stability check, so the values they compare are computed alike. On
 * Windows the inode is read as a bigint: NTFS file ids pass 2^53, where a number would merge
 * two files; elsewhere numbers hold them, and a bigint lstat makes a dozen BigInts per item,
 * a third of an unchanged scan's time in garbage collection.
 */
import { type BigIntStats, lstatSync, type Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';

const BIGINT = process.platform === 'win32';

/** What the sync client needs of an lstat. */
export interface DiskStats {
  kind: 'file' | 'folder' | 'other';
  size: number;
  /** Milliseconds (whole ones on Windows, where the bigint lstat gives no fraction). */
  mtimeMs: number;
  /** `dev:ino`. */
  inode: string;
}

function toDiskStats(stats: Stats | BigIntStats): DiskStats {
  return {
    kind: stats.isFile() ? 'file' : stats.isDirectory() ? 'folder' : 'other',
    size: Number(stats.size),
    mtimeMs: Number(stats.mtimeMs),
    inode: `${stats.dev}:${stats.ino}`,
  };
}

/** The item at `absPath` (not following a symlink), or undefined when nothing is there. */
export function diskStatsSync(absPath: string): DiskStats | undefined {
  const stats = lstatSync(absPath, { bigint: BIGINT, throwIfNoEntry: false });
  return stats && toDiskStats(stats);
}

/** diskStatsSync without blocking; errors other than "not there" are thrown. */
export async function diskStats(absPath: string): Promise<DiskStats | undefined> {
  try {
    return toDiskStats(await lstat(absPath, { bigint: BIGINT }));
  } catch (error) {
    // As the synchronous call's throwIfNoEntry: a file where a folder of the path should be also means nothing is there.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}
