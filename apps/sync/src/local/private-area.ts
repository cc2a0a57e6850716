/**
 * The client's private area in the synced folder (`.cloudvault/`, never synced): `tmp/` holds
 * downloads in flight, on the same filesystem as their destination so placing one is an
 * atomic rename; `trash/` holds what deletions on the server took off the disk.
 */
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR } from './ignore-rules.ts';

/** The folder downloads in flight are written to. */
export function tmpDir(root: string): string {
  return path.join(root, PRIVATE_DIR, 'tmp');
}

/** The folder the local trash's dated folders go in. */
export function trashDir(root: string): string {
  return path.join(root, PRIVATE_DIR, 'trash');
}

/**
 * The temporary file of the download named by `key` (say the file's id and hash): the same
 * path every time, so a download cut off resumes from the temporary file's size (Range).
 * Creates the folder when missing.
 */
export async function tempPathFor(root: string, key: string): Promise<string> {
  await mkdir(tmpDir(root), { recursive: true });
  return path.join(tmpDir(root), `download-${createHash('sha256').update(key).digest('hex').slice(0, 32)}.part`);
}

/** `YYYY-MM-DD HHMMSS` in the device's local time, as trash folders and conflict copies are named. */
export function localStamp(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}${two(date.getMinutes())}${two(date.getSeconds())}`;
}
