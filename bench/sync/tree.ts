import { randomFillSync } from 'node:crypto';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A tree of files on disk, described by its relative paths, as generated. */
export interface Tree {
  dir: string;
  files: string[];
  bytes: number;
}

/** A tree's files are dated this far back: a tree there already, not files still being written (which the client holds back). */
const WRITTEN_AGO_MS = 60_000;

/**
 * `count` files of `size` random bytes in folders of `perFolder` (`d000/f00000.bin`), so no two
 * share content and no server-side copy by hash can skip one. Written `concurrency` at a time,
 * each dated a minute back.
 */
export async function writeTree(dir: string, count: number, size: number, perFolder: number, concurrency = 32): Promise<Tree> {
  const files = Array.from({ length: count }, (_, index) => {
    const folder = `d${String(Math.floor(index / perFolder)).padStart(3, '0')}`;
    return `${folder}/f${String(index).padStart(6, '0')}.bin`;
  });
  for (const folder of new Set(files.map((file) => path.dirname(file)))) await mkdir(path.join(dir, folder), { recursive: true });
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      await writeFile(path.join(dir, file), randomFillSync(Buffer.allocUnsafe(size)));
      const past = new Date(Date.now() - WRITTEN_AGO_MS);
      await utimes(path.join(dir, file), past, past);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { dir, files, bytes: count * size };
}

/** Every regular file under `dir` (relative, `/`-separated), skipping the client's private area. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.startsWith('.cloudvault/'))
    .sort();
}

/**
 * Null when `copyDir` holds exactly the tree's files, byte for byte; otherwise what differs.
 * A transfer whose result is wrong is no figure.
 */
export async function compareTree(tree: Tree, copyDir: string): Promise<string | null> {
  const copied = await listFiles(copyDir);
  const expected = [...tree.files].sort();
  if (copied.length !== expected.length || copied.some((file, index) => file !== expected[index])) {
    const have = new Set(copied);
    const missing = expected.filter((file) => !have.has(file)).slice(0, 3);
    return `${copied.length} files where ${expected.length} were expected (missing e.g. ${missing.join(', ') || 'none'})`;
  }
  for (const file of expected) {
    const [original, copy] = await Promise.all([readFile(path.join(tree.dir, file)), readFile(path.join(copyDir, file))]);
    if (!original.equals(copy)) return `${file} differs`;
  }
  return null;
}
