import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, open, rm, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A small ext4 file system mounted for a test: a disk that really fills up. */
export interface SmallDisk {
  mountPoint: string;
  /** Bytes a write may still take, as df reports them. */
  freeBytes(): Promise<number>;
  /** Unmounts and deletes the image; safe to call more than once. */
  remove(): Promise<void>;
}

/**
 * An ext4 image of `sizeMiB` on a loop device, mounted at `mountPoint` (created if missing).
 * ext4 rather than tmpfs: the durable writer opens files with O_DIRECT, which tmpfs refuses.
 * No blocks are reserved for root (`-m 0`), so the test, running as root, fills it as any
 * server user would. Needs root (mount).
 */
export async function mountSmallDisk(mountPoint: string, sizeMiB: number): Promise<SmallDisk> {
  const imageDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-disk-'));
  const image = path.join(imageDir, 'disk.img');
  const file = await open(image, 'w');
  await file.truncate(sizeMiB * 1024 * 1024);
  await file.close();
  let mounted = false;
  const remove = async () => {
    if (mounted) {
      // A lazy unmount when a file is still open (a server that failed to close): the image goes anyway.
      await run('umount', [mountPoint]).catch(() => run('umount', ['-l', mountPoint]));
      mounted = false;
    }
    await rm(imageDir, { recursive: true, force: true });
  };
  try {
    await run('mkfs.ext4', ['-q', '-F', '-m', '0', image]);
    await mkdir(mountPoint, { recursive: true });
    await run('mount', ['-o', 'loop', image, mountPoint]);
    mounted = true;
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    mountPoint,
    async freeBytes() {
      const stats = await statfs(mountPoint);
      return stats.bavail * stats.bsize;
    },
    remove,
  };
}
