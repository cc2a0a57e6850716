import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore from 'ignore';

/** The file at the synced folder's root whose gitignore-syntax lines name what is not synced. */
export const IGNORE_FILE = '.cloudvaultignore';

/** The client's private area in the synced folder: downloads in flight, the local trash. */
export const PRIVATE_DIR = '.cloudvault';

/** What is never synced whatever `.cloudvaultignore` says: system droppings, editors' lock and swap files, the private area. */
export const DEFAULT_IGNORES = ['.DS_Store', 'Thumbs.db', 'desktop.ini', '~$*', '*.swp', '*~', '.~lock.*#', '*.tmp', `${PRIVATE_DIR}/`];

/** Decides what the scan leaves out. Paths are local, relative to the root, `/`-separated. */
export interface IgnoreRules {
  ignores(relativePath: string, isDirectory: boolean): boolean;
}

/**
 * The rules of a synced folder: the defaults, then its `.cloudvaultignore` (absent: the
 * defaults alone), read once per pass so an edit applies from the next one.
 */
export async function loadIgnoreRules(root: string): Promise<IgnoreRules> {
  const rules = ignore().add(DEFAULT_IGNORES);
  try {
    rules.add(await readFile(path.join(root, IGNORE_FILE), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // The package caches every answer in one object keyed by path: past some ten thousand
  // paths that object is most of a scan's time (1 s of 100,000 paths). A scan asks about one
  // folder's items in a row, so each folder gets a fresh instance sharing the parsed rules.
  let folder: string | undefined;
  let forFolder = rules;
  return {
    ignores(relativePath, isDirectory) {
      const parent = relativePath.slice(0, Math.max(0, relativePath.lastIndexOf('/')));
      if (parent !== folder) {
        folder = parent;
        forFolder = ignore().add(rules);
      }
      return forFolder.ignores(isDirectory ? `${relativePath}/` : relativePath);
    },
  };
}
