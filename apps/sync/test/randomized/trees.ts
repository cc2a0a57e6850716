import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** A tree as the checks compare it: folder paths and file paths with their SHA-256, `/`-separated, NFC. */
export interface Tree {
  folders: Set<string>;
  files: Map<string, string>;
  /** Local trees: names on disk that are one name once composed (NFC), which the server could not hold side by side. */
  clashes?: string[];
}

/** The client's private area at the root of a synced folder: never synced, never compared. */
export const PRIVATE_AREA = '.cloudvault';

/** The lowercase hex SHA-256 of a file on disk, streamed. */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The lowercase hex SHA-256 of `bytes`. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The tree on disk under `root`, without the client's private area at its root. Names are
 * compared in their composed form (NFC), the form the server keeps: the client may hold a
 * decomposed name on disk for the same item.
 */
export async function readLocalTree(root: string): Promise<Tree> {
  const tree: Tree = { folders: new Set(), files: new Map(), clashes: [] };
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const name of await readdir(dir)) {
      if (prefix === '' && name === PRIVATE_AREA) continue;
      const full = path.join(dir, name);
      const relative = `${prefix}${name.normalize('NFC')}`;
      if (tree.folders.has(relative) || tree.files.has(relative)) tree.clashes?.push(`${prefix}${name}`);
      const stats = await lstat(full);
      if (stats.isDirectory()) {
        tree.folders.add(relative);
        await walk(full, `${relative}/`);
      } else if (stats.isFile()) {
        tree.files.set(relative, await hashFile(full));
      }
    }
  };
  await walk(root, '');
  return tree;
}

/** Every content (SHA-256) of the files under `dir`, or none when it does not exist. */
export async function hashesUnder(dir: string): Promise<Set<string>> {
  const hashes = new Set<string>();
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) hashes.add(await hashFile(full));
    }
  };
  await walk(dir);
  return hashes;
}

/** How tree `a` differs from tree `b`, one line per path (none when they are the same). */
export function diffTrees(a: Tree, aName: string, b: Tree, bName: string): string[] {
  const lines: string[] = [];
  for (const folder of a.folders) if (!b.folders.has(folder)) lines.push(`folder ${folder}/ on ${aName}, not on ${bName}`);
  for (const folder of b.folders) if (!a.folders.has(folder)) lines.push(`folder ${folder}/ on ${bName}, not on ${aName}`);
  for (const [file, hash] of a.files) {
    const other = b.files.get(file);
    if (other === undefined) lines.push(`file ${file} on ${aName}, not on ${bName}`);
    else if (other !== hash) lines.push(`file ${file} differs: ${aName} ${hash.slice(0, 12)}, ${bName} ${other.slice(0, 12)}`);
  }
  for (const file of b.files.keys()) if (!a.files.has(file)) lines.push(`file ${file} on ${bName}, not on ${aName}`);
  return lines.sort();
}

/** A tree in a few lines, for a failure's report. */
export function describeTree(tree: Tree): string {
  return [...[...tree.folders].map((folder) => `${folder}/`), ...[...tree.files].map(([file, hash]) => `${file} ${hash.slice(0, 12)}`)]
    .sort()
    .join('\n');
}
