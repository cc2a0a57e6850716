import { randomFillSync } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

const CHUNK = 1024 * 1024;

/** Every file a scenario sends or serves, generated for this run only. */
export interface Fixtures {
  /** Served by nginx and the bare server under /files/. */
  filesDir: string;
  large: { path: string; name: string; size: number };
  zipEntries: { path: string; name: string; size: number }[];
  /** The same entries as one stored (uncompressed) zip, served as a file by the ceilings. */
  zip: { path: string; name: string; size: number };
  small: { path: string; name: string; size: number }[];
}

/** Random bytes, so neither a file system nor a zip can shrink them. */
export async function writeRandomFile(filePath: string, size: number): Promise<void> {
  const handle = await open(filePath, 'w');
  try {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK, size));
    for (let written = 0; written < size;) {
      const length = Math.min(buffer.length, size - written);
      randomFillSync(buffer, 0, length);
      await handle.write(buffer, 0, length);
      written += length;
    }
  } finally {
    await handle.close();
  }
}

/** `count` files of `size` random bytes named `<prefix>-00001.bin` onwards in `dir`. */
export async function randomFiles(dir: string, prefix: string, count: number, size: number) {
  await mkdir(dir, { recursive: true });
  const files = Array.from({ length: count }, (_, index) => {
    const name = `${prefix}-${String(index + 1).padStart(5, '0')}.bin`;
    return { path: path.join(dir, name), name, size };
  });
  for (const file of files) await writeRandomFile(file.path, size);
  return files;
}

/** Built once with yazl in store mode: what an ideal server would send for the folder. */
export async function buildStoredZip(entries: Fixtures['zipEntries'], zipPath: string): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) zip.addFile(entry.path, entry.name, { compress: false });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(zipPath));
}

export async function createFixtures(
  root: string,
  sizes: { largeFileBytes: number; zipFileCount: number; zipFileBytes: number; concurrentUploads: number; concurrentFileBytes: number },
): Promise<Fixtures> {
  const filesDir = path.join(root, 'files');
  await mkdir(filesDir, { recursive: true });
  const large = { path: path.join(filesDir, 'large.bin'), name: 'large.bin', size: sizes.largeFileBytes };
  await writeRandomFile(large.path, large.size);
  const zipEntries = await randomFiles(path.join(root, 'zip-folder'), 'entry', sizes.zipFileCount, sizes.zipFileBytes);
  const zipPath = path.join(filesDir, 'folder.zip');
  await buildStoredZip(zipEntries, zipPath);
  const { size: zipSize } = await stat(zipPath);
  const small = await randomFiles(path.join(root, 'small'), 'small', sizes.concurrentUploads, sizes.concurrentFileBytes);
  return { filesDir, large, zipEntries, zip: { path: zipPath, name: 'folder.zip', size: zipSize }, small };
}
