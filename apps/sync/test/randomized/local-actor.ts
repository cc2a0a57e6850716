import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { newContent, newFileName, newFolderName, siblingKey } from './contents.ts';
import type { SeededRandom } from './seeded-random.ts';
import { PRIVATE_AREA } from './trees.ts';

/** The virtual folder the client shows shares in (remote root `/`): nothing a person puts there is theirs to sync. */
const SHARED_WITH_ME = 'Shared with me';

/** What a person does to a synced folder on disk; each answers what it did, or undefined when nothing fit. */
export type LocalOperation =
  | 'createFile'
  | 'modifyFile'
  | 'renameFile'
  | 'moveFile'
  | 'deleteFile'
  | 'mkdirDeep'
  | 'renameFolder'
  | 'moveFolder'
  | 'deleteFolder'
  | 'caseOnlyRename'
  | 'caseTwin'
  | 'formTwin';

interface Listing {
  folders: string[];
  files: string[];
}

/** The folders (the root as '') and files on disk, as the file system names them. */
async function listLocal(root: string): Promise<Listing> {
  const listing: Listing = { folders: [''], files: [] };
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (relative === '' && (entry.name === PRIVATE_AREA || entry.name === SHARED_WITH_ME)) continue;
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        listing.folders.push(child);
        await walk(child);
      } else if (entry.isFile()) listing.files.push(child);
    }
  };
  await walk('');
  return listing;
}

const parentOf = (relative: string) => (relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '');
const baseName = (relative: string) => relative.slice(relative.lastIndexOf('/') + 1);
const join = (folder: string, name: string) => (folder === '' ? name : `${folder}/${name}`);

/** Whether `folder` already holds a name equal to `name` as the server compares them. */
function nameTaken(listing: Listing, folder: string, name: string): boolean {
  const key = siblingKey(name);
  return [...listing.folders, ...listing.files].some(
    (item) => item !== '' && parentOf(item) === folder && siblingKey(baseName(item)) === key,
  );
}

/**
 * A person at the disk of one synced folder, drawing from `random`. `nextNumber` numbers new
 * names and contents across the run; `large` allows the rare large file.
 */
export function localActor(root: string, random: SeededRandom, nextNumber: () => number, large: boolean) {
  const full = (relative: string) => path.join(root, relative);
  const writeContent = async (relative: string): Promise<void> => {
    const content = newContent(random, nextNumber(), large);
    // Editors write in place or save beside and rename over; both happen.
    if (random.chance(0.5)) await writeFile(full(relative), content);
    else {
      const aside = full(`${relative}.saving`);
      await writeFile(aside, content);
      await rename(aside, full(relative));
    }
  };
  const operations: Record<LocalOperation, (listing: Listing) => Promise<string | undefined>> = {
    createFile: async (listing) => {
      const folder = random.pick(listing.folders);
      const name = newFileName(random, nextNumber());
      if (nameTaken(listing, folder, name)) return undefined;
      await writeContent(join(folder, name));
      return `create ${join(folder, name)}`;
    },
    modifyFile: async (listing) => {
      if (listing.files.length === 0) return undefined;
      const file = random.pick(listing.files);
      await writeContent(file);
      return `modify ${file}`;
    },
    renameFile: async (listing) => {
      if (listing.files.length === 0) return undefined;
      const file = random.pick(listing.files);
      const target = join(parentOf(file), newFileName(random, nextNumber()));
      await rename(full(file), full(target));
      return `rename ${file} -> ${target}`;
    },
    moveFile: async (listing) => {
      if (listing.files.length === 0) return undefined;
      const file = random.pick(listing.files);
      const folder = random.pick(listing.folders);
      if (folder === parentOf(file) || nameTaken(listing, folder, baseName(file))) return undefined;
      await rename(full(file), full(join(folder, baseName(file))));
      return `move ${file} -> ${folder || '/'}`;
    },
    deleteFile: async (listing) => {
      if (listing.files.length === 0) return undefined;
      const file = random.pick(listing.files);
      await rm(full(file));
      return `delete ${file}`;
    },
    mkdirDeep: async (listing) => {
      let folder = random.pick(listing.folders);
      for (let depth = random.int(1, 3); depth > 0; depth -= 1) folder = join(folder, newFolderName(random, nextNumber()));
      await mkdir(full(folder), { recursive: true });
      // A new folder is seldom left empty.
      if (!random.chance(0.7)) return `mkdir ${folder}`;
      const file = join(folder, newFileName(random, nextNumber()));
      await writeContent(file);
      return `mkdir ${folder}, create ${file}`;
    },
    renameFolder: async (listing) => {
      if (listing.folders.length < 2) return undefined;
      const folder = random.pick(listing.folders.slice(1));
      const target = join(parentOf(folder), newFolderName(random, nextNumber()));
      await rename(full(folder), full(target));
      return `rename folder ${folder} -> ${target}`;
    },
    moveFolder: async (listing) => {
      if (listing.folders.length < 2) return undefined;
      const folder = random.pick(listing.folders.slice(1));
      const into = random.pick(listing.folders);
      if (into === folder || into.startsWith(`${folder}/`) || into === parentOf(folder) || nameTaken(listing, into, baseName(folder)))
        return undefined;
      await rename(full(folder), full(join(into, baseName(folder))));
      return `move folder ${folder} -> ${into || '/'}`;
    },
    deleteFolder: async (listing) => {
      if (listing.folders.length < 2) return undefined;
      const folder = random.pick(listing.folders.slice(1));
      await rm(full(folder), { recursive: true });
      return `delete folder ${folder}`;
    },
    caseOnlyRename: async (listing) => {
      const items = [...listing.files, ...listing.folders.slice(1)];
      if (items.length === 0) return undefined;
      const item = random.pick(items);
      const name = baseName(item);
      const flipped = [...name].map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())).join('');
      if (flipped === name) return undefined;
      await rename(full(item), full(join(parentOf(item), flipped)));
      return `case-only rename ${item} -> ${flipped}`;
    },
    // Names the server counts as one with a sibling's: the client must keep both, renamed with a marker.
    caseTwin: async (listing) => {
      if (listing.files.length === 0) return undefined;
      const file = random.pick(listing.files);
      const twin = join(parentOf(file), baseName(file).toUpperCase());
      if (twin === file || listing.files.includes(twin)) return undefined;
      await writeContent(twin);
      return `create ${twin}, a case twin of ${file}`;
    },
    formTwin: async (listing) => {
      const composable = listing.files.filter((file) => baseName(file).normalize('NFD') !== baseName(file));
      if (composable.length === 0) return undefined;
      const file = random.pick(composable);
      const twin = join(parentOf(file), baseName(file).normalize('NFD'));
      if (listing.files.includes(twin)) return undefined;
      await writeContent(twin);
      return `create ${file} decomposed (NFD), a twin of the composed one`;
    },
  };
  return {
    /** Carries out `operation` on the disk as it is now. */
    run: async (operation: LocalOperation) => operations[operation](await listLocal(root)),
    /** Writes new content into `relative` when it is a file on disk (half of a concurrent edit). */
    modify: async (relative: string): Promise<boolean> => {
      const listing = await listLocal(root);
      if (!listing.files.includes(relative)) return false;
      await writeContent(relative);
      return true;
    },
    /** The files on disk now (for a concurrent edit's pick). */
    files: async () => (await listLocal(root)).files,
  };
}
