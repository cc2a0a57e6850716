/**
 * What a drop (or a pick) asks to upload: files, each in a sub-path of the target folder,
 * and the folders of a dropped desktop folder (empty ones included) so that its tree is
 * recreated: folders first, then files.
 */
export interface UploadPlan {
  /** Folder paths relative to the target, each listed after its parent. */
  directories: string[][];
  files: Array<{ file: File; directory: string[] }>;
}

const pathKey = (path: readonly string[]) => path.join('/');

/** Adds every ancestor of `path` (and itself) to the plan's directories, parents first. */
function addDirectory(plan: UploadPlan, known: Set<string>, path: readonly string[]) {
  for (let depth = 1; depth <= path.length; depth += 1) {
    const prefix = path.slice(0, depth);
    const key = pathKey(prefix);
    if (!known.has(key)) {
      known.add(key);
      plan.directories.push(prefix);
    }
  }
}

/**
 * A plan from files that carry their relative path, as react-dropzone gives them
 * (`relativePath` '/Photos/2024/a.jpg' for a dropped folder, './a.jpg' for a loose file;
 * `webkitRelativePath` for a picked directory).
 */
export function planFromFiles(files: readonly File[]): UploadPlan {
  const plan: UploadPlan = { directories: [], files: [] };
  const known = new Set<string>();
  for (const file of files) {
    const withPath = file as File & { relativePath?: string; path?: string };
    const raw = withPath.relativePath || file.webkitRelativePath || '';
    const segments = raw.split('/').filter((segment) => segment !== '' && segment !== '.');
    const directory = segments.slice(0, -1);
    if (directory.length > 0) addDirectory(plan, known, directory);
    plan.files.push({ file, directory });
  }
  return plan;
}

// --- Dropped DataTransfer ---------------------------------------------------------------------

/** The parts of FileSystemEntry this module uses (typed narrowly so tests can fake them). */
export interface DroppedEntry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
}
interface DroppedFileEntry extends DroppedEntry {
  file(success: (file: File) => void, failure?: (error: unknown) => void): void;
}
interface DroppedDirectoryEntry extends DroppedEntry {
  createReader(): { readEntries(success: (entries: DroppedEntry[]) => void, failure?: (error: unknown) => void): void };
}

const readFile = (entry: DroppedFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** Every entry of a directory: readEntries answers in chunks until it answers empty. */
async function readAll(entry: DroppedDirectoryEntry): Promise<DroppedEntry[]> {
  const reader = entry.createReader();
  const all: DroppedEntry[] = [];
  for (;;) {
    const chunk = await new Promise<DroppedEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (chunk.length === 0) return all;
    all.push(...chunk);
  }
}

/** A plan from file-system entries (webkitGetAsEntry), walking directories recursively. */
export async function planFromEntries(entries: readonly DroppedEntry[]): Promise<UploadPlan> {
  const plan: UploadPlan = { directories: [], files: [] };
  const known = new Set<string>();
  async function walk(entry: DroppedEntry, parent: string[]) {
    if (entry.isFile) {
      plan.files.push({ file: await readFile(entry as DroppedFileEntry), directory: parent });
    } else if (entry.isDirectory) {
      const path = [...parent, entry.name];
      addDirectory(plan, known, path);
      const children = await readAll(entry as DroppedDirectoryEntry);
      for (const child of children) await walk(child, path);
    }
  }
  for (const entry of entries) await walk(entry, []);
  return plan;
}

/**
 * Reads a drop event's payload. Must be called synchronously inside the drop handler:
 * the DataTransfer's items are only readable during the event. Entries are used when the
 * browser offers them (folders); plain files otherwise (a DataTransfer built by a script).
 */
export function planFromDataTransfer(dataTransfer: DataTransfer): Promise<UploadPlan> {
  const entries: DroppedEntry[] = [];
  const looseFiles: File[] = [];
  const items = Array.from(dataTransfer.items ?? []).filter((item) => item.kind === 'file');
  for (const item of items) {
    const entry = typeof item.webkitGetAsEntry === 'function' ? (item.webkitGetAsEntry() as DroppedEntry | null) : null;
    if (entry) {
      entries.push(entry);
    } else {
      const file = item.getAsFile();
      if (file) looseFiles.push(file);
    }
  }
  if (items.length === 0) looseFiles.push(...Array.from(dataTransfer.files ?? []));
  return planFromEntries(entries).then((plan) => ({
    directories: plan.directories,
    files: [...plan.files, ...looseFiles.map((file) => ({ file, directory: [] }))],
  }));
}
