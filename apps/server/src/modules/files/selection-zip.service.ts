import type { SelectionZipBody } from '@cloudvault/contract/selection-zip';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { numberedName } from '../../lib/unique-name.ts';
import { folderNotFound, type FoldersService } from '../folders/folders.service.ts';
import type { ArchiveMember, FolderArchiveService } from './folder-archive.service.ts';
import type { FilesService } from './files.service.ts';

/** A selection as a download link carries it: `f:` and `d:` before each file's and folder's id, comma-separated. */
export function encodeSelection({ files, folders }: SelectionZipBody): string {
  return [...files.map((id) => `f:${id}`), ...folders.map((id) => `d:${id}`)].join(',');
}

/** The selection of `encodeSelection`; null for anything else. */
export function decodeSelection(encoded: string): SelectionZipBody | null {
  const selection: SelectionZipBody = { files: [], folders: [] };
  for (const part of encoded.split(',')) {
    const [kind, id] = [part.slice(0, 2), part.slice(2)];
    if (!id) return null;
    if (kind === 'f:') selection.files.push(id);
    else if (kind === 'd:') selection.folders.push(id);
    else return null;
  }
  return selection;
}

/** `name`, or `name (1)`, `name (2)`… (before a file's extension) while another member holds it, compared as people see names. */
function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let clash = 1; taken.has(candidate.toLowerCase()); clash += 1) candidate = numberedName(name, clash);
  taken.add(candidate.toLowerCase());
  return candidate;
}

/**
 * Several items of one drive as one zip (docs/api.md#selection-zip): every id must be the
 * caller's and live, or the whole request is a 404 naming the first one missing, before
 * any byte; the same id twice counts once. Files go at the zip's top, each folder as a
 * directory of its name holding its subtree; a name two members share becomes "name (1)".
 */
export function createSelectionZipService(deps: {
  files: Pick<FilesService, 'requireFile'>;
  folders: Pick<FoldersService, 'findLive'>;
  folderArchives: Pick<FolderArchiveService, 'archiveOf'>;
  clock: Clock;
}) {
  /** The members under their names in the zip; throws the 400 or 404 the request deserves. */
  async function membersOf(userId: string, selection: SelectionZipBody): Promise<ArchiveMember[]> {
    const fileIds = [...new Set(selection.files)];
    const folderIds = [...new Set(selection.folders)];
    if (fileIds.length + folderIds.length === 0) throw badRequest('Choose at least one file or folder to download', 'EMPTY_SELECTION');
    const taken = new Set<string>();
    const members: ArchiveMember[] = [];
    for (const id of folderIds) {
      const folder = await deps.folders.findLive(userId, id);
      if (!folder) throw folderNotFound();
      members.push({ kind: 'folder', id, name: uniqueName(folder.name, taken), updatedAt: folder.updated_at });
    }
    for (const id of fileIds) {
      const row = await deps.files.requireFile(userId, id);
      members.push({ kind: 'file', row, name: uniqueName(row.name, taken) });
    }
    return members;
  }

  return {
    /** Refuses a selection the zip would refuse, before a link to it is made. */
    async check(userId: string, selection: SelectionZipBody): Promise<void> {
      await membersOf(userId, selection);
    },

    /** The zip of the selection, named "CloudVault <date>.zip" (the date in UTC). */
    async archive(userId: string, selection: SelectionZipBody) {
      const members = await membersOf(userId, selection);
      const date = deps.clock.now().toISOString().slice(0, 10);
      return deps.folderArchives.archiveOf(userId, `CloudVault ${date}.zip`, members);
    },
  };
}

export type SelectionZipService = ReturnType<typeof createSelectionZipService>;

/** A link's selection that no longer decodes is as dead as an expired link. */
export const selectionLinkInvalid = () => notFound('This download link has expired. Start the download again.', 'DOWNLOAD_LINK_INVALID');
