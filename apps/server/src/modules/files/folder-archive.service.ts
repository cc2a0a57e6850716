import { ITEM_NAME_MAX_LENGTH } from '@cloudvault/contract/validation';
import type { BlobStore } from '../../adapters/blob-store/blob-store.ts';
import { notFound, pathTooLongForZip as pathTooLong } from '../../lib/errors.ts';
import { createZipArchive, MAX_ENTRY_NAME_BYTES, type ZipArchive, type ZipEntry } from '../../lib/zip-writer.ts';
import type { FoldersService } from '../folders/folders.service.ts';
import type { FileRow, FilesRepository } from './files.repository.ts';

/** Members read from the database per query: the archive holds one page of rows at a time. */
export const ARCHIVE_PAGE = 1000;
/** The most UTF-8 bytes a file's name can take: every name is checked to at most 255 code points, each at most 4 bytes. */
const MAX_ITEM_NAME_BYTES = ITEM_NAME_MAX_LENGTH * 4;

/**
 * A folder as a zip streamed while it is read: entry paths relative to the folder, every
 * sub-folder as a directory entry (empty ones included), deflated or stored per the
 * user's `storage.compressionEnabled`. The members come from the database a page at a
 * time, in path order, as the zip is written (db/archive-entries.ts), so a folder of any
 * size holds one page of rows; what changes in the folder while it is being zipped may
 * or may not be in the zip, as with any copy of a folder in use.
 */
export function createFolderArchiveService(deps: {
  folders: Pick<FoldersService, 'findLive'>;
  files: Pick<FilesRepository, 'archiveEntries' | 'longestArchivePath' | 'longestArchiveFolderPath'>;
  blobs: Pick<BlobStore, 'readInto'>;
  compressionEnabled(userId: string): Promise<boolean>;
}) {
  /** The folder's members, their paths after `prefix` ('' for the folder's own zip, `name/` inside a selection's). */
  async function* entriesOf(userId: string, folderId: string, prefix = ''): AsyncGenerator<ZipEntry[]> {
    let afterPath = '';
    for (;;) {
      // One row past the page says whether another follows: no query for an empty last page.
      const rows = await deps.files.archiveEntries(userId, folderId, afterPath, ARCHIVE_PAGE + 1);
      const page = rows.slice(0, ARCHIVE_PAGE);
      yield page.map((row): ZipEntry => {
        const modifiedAt = new Date(row.updated_at);
        if (row.blob_key === null) return { path: prefix + row.path, modifiedAt };
        return {
          path: prefix + row.path,
          modifiedAt,
          file: zipFileOf(deps.blobs, { blob_key: row.blob_key, size: Number(row.size), crc32: Number(row.crc32) }),
        };
      });
      const last = page.at(-1);
      if (!last || rows.length <= ARCHIVE_PAGE) return;
      afterPath = last.path;
    }
  }

  /**
   * Whether a member's path exceeds a zip entry name. The sub-folders' paths say it alone
   * unless the longest of them leaves less room than a file name can take: then the files'
   * paths are measured too. A zip of an ordinary folder thus reads its folder tree for the
   * check, not its files as well.
   */
  async function hasPathTooLong(userId: string, folderId: string, prefixBytes = 0): Promise<boolean> {
    const room = MAX_ENTRY_NAME_BYTES - prefixBytes;
    const folderPath = await deps.files.longestArchiveFolderPath(userId, folderId);
    if (folderPath > room) return true;
    if (folderPath + MAX_ITEM_NAME_BYTES <= room) return false;
    return (await deps.files.longestArchivePath(userId, folderId)) > room;
  }

  return {
    async archive(userId: string, folderId: string): Promise<{ name: string; zip: ZipArchive }> {
      const root = await deps.folders.findLive(userId, folderId);
      if (!root) throw notFound('Folder not found', 'FOLDER_NOT_FOUND');
      // Refused while an error can still be answered, not as a zip cut off midway.
      if (await hasPathTooLong(userId, folderId)) throw pathTooLong();
      return {
        name: `${root.name}.zip`,
        zip: createZipArchive(entriesOf(userId, folderId), { compress: await deps.compressionEnabled(userId), everyFileStored: true }),
      };
    },

    /**
     * Several members of one drive as one zip named `name`: each file at the top under its
     * member name, each folder as a directory of that name holding its subtree, read a page
     * at a time as the folder zip is. Member names must already be unique; the folders must
     * be the user's and live (checked by the caller, whose 404 says which).
     */
    async archiveOf(userId: string, name: string, members: readonly ArchiveMember[]): Promise<{ name: string; zip: ZipArchive }> {
      for (const member of members) {
        if (member.kind === 'folder' && (await hasPathTooLong(userId, member.id, Buffer.byteLength(`${member.name}/`))))
          throw pathTooLong();
      }
      async function* pages(): AsyncGenerator<ZipEntry[]> {
        const files = members.flatMap((member) =>
          member.kind === 'file'
            ? [{ path: member.name, modifiedAt: new Date(member.row.updated_at), file: zipFileOf(deps.blobs, member.row) }]
            : [],
        );
        for (let start = 0; start < files.length; start += ARCHIVE_PAGE) yield files.slice(start, start + ARCHIVE_PAGE);
        for (const member of members) {
          if (member.kind !== 'folder') continue;
          yield [{ path: `${member.name}/`, modifiedAt: new Date(member.updatedAt) }];
          yield* entriesOf(userId, member.id, `${member.name}/`);
        }
      }
      return { name, zip: createZipArchive(pages(), { compress: await deps.compressionEnabled(userId), everyFileStored: true }) };
    },
  };
}

/** A member of a selection's zip, under the unique `name` it has at the zip's top. */
export type ArchiveMember =
  | { kind: 'file'; name: string; row: Pick<FileRow, 'blob_key' | 'size' | 'crc32' | 'updated_at'> }
  | { kind: 'folder'; name: string; id: string; updatedAt: string };

/** A stored file as an archive member, its bytes read from the blob store as the archive is written. */
export function zipFileOf(blobs: Pick<BlobStore, 'readInto'>, file: Pick<FileRow, 'blob_key' | 'size' | 'crc32'>): ZipEntry['file'] {
  return {
    size: Number(file.size),
    crc32: Number(file.crc32),
    read: (target, targetOffset, position, length) =>
      blobs.readInto(file.blob_key, { start: position, end: position + length - 1 }, target, targetOffset),
    storedKey: file.blob_key,
  };
}

export type FolderArchiveService = ReturnType<typeof createFolderArchiveService>;
