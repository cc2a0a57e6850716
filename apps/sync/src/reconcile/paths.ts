import { nameKey } from '@cloudvault/contract/validation';
import type { SyncPath } from '../model.ts';

/** The folder holding `path` ('' for an item at the root). */
export function parentOf(path: SyncPath): SyncPath {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** The last segment of `path`. */
export function nameOf(path: SyncPath): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `name` inside `folder` (the root is ''). */
export function joinPath(folder: SyncPath, name: string): SyncPath {
  return folder === '' ? name : `${folder}/${name}`;
}

/** Whether `path` is `folder` itself or lies somewhere under it. */
export function isAtOrUnder(path: SyncPath, folder: SyncPath): boolean {
  return folder === '' || path === folder || path.startsWith(`${folder}/`);
}

/** How many folders deep `path` is: 0 at the root. */
export function depthOf(path: SyncPath): number {
  return path === '' ? 0 : path.split('/').length - 1;
}

/** `path` once `from` (itself or a folder holding it) has moved to `to`. */
export function rebase(path: SyncPath, from: SyncPath, to: SyncPath): SyncPath {
  if (path === from) return to;
  return isAtOrUnder(path, from) ? to + path.slice(from.length) : path;
}

/**
 * The server's identity of a path: it refuses two names in one folder that are equal
 * NFC-lowercased (`nameKey`), so two paths with the same key cannot both live there.
 */
export function pathKey(path: SyncPath): string {
  // Plain ASCII (most paths) composes to itself: lowercasing is the whole key, and cheap.
  return ASCII.test(path) ? path.toLowerCase() : path.split('/').map(nameKey).join('/');
}

const ASCII = /^[ -~]*$/;

/** Paths in a stable order (code-unit order, the same on every machine). */
export function comparePaths(a: SyncPath, b: SyncPath): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
