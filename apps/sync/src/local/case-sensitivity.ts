import { randomBytes } from 'node:crypto';
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tmpDir } from './private-area.ts';

/**
 * True when the disk under the synced folder finds a file by a name in other case (macOS and
 * Windows by default): probed by writing a lower-case file in `.cloudvault/tmp/` and
 * looking for it in upper case. Moves that only change case then go through a temporary name.
 */
export async function detectCaseInsensitive(root: string): Promise<boolean> {
  await mkdir(tmpDir(root), { recursive: true });
  const probe = path.join(tmpDir(root), `case-probe-${randomBytes(6).toString('hex')}`);
  await writeFile(probe, '');
  try {
    await access(path.join(tmpDir(root), path.basename(probe).toUpperCase()));
    return true;
  } catch {
    return false;
  } finally {
    await rm(probe, { force: true });
  }
}
