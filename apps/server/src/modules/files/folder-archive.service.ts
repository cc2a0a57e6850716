import type { BlobStore } from '../../adapters/blob-store/blob-store.ts';
import { notFound, pathTooLongForZip as pathTooLong } from '../../lib/errors.ts';
import { createZipArchive, pathTooLongForZip, type ZipArchive, type ZipEntry } from '../../lib/zip-writer.ts';
import type { FoldersRepository } from '../folders/folders.repository.ts';
import type { FileRow, FilesRepository } from './files.repository.ts';

/**
 * A folder as a zip streamed while it is read: entry paths relative to the folder, every
 * sub-folder as a directory entry (empty ones included), deflated or stored per the
 * user's `storage.compressionEnabled`. Names are already safe (no separators, never
 * `.` or `..`), so joining them with '/' cannot escape the archive's root.
 */
export function createFolderArchiveService(deps: {
  folders: Pick<FoldersRepository, 'liveSubtree'>;
  files: Pick<FilesRepository, 'listLiveInFolders'>;
  blobs: Pick<BlobStore, 'readInto' | 'localPath'>;
  compressionEnabled(userId: string): Promise<boolean>;
}) {
  return {
    async archive(userId: string, folderId: string): Promise<{ name: string; zip: ZipArchive }> {
      const folders = await deps.folders.liveSubtree(userId, folderId);
      const root = folders.find((folder) => folder.id === folderId);
      if (!root) throw notFound('Folder not found', 'FOLDER_NOT_FOUND');

      const prefixOf = new Map<string, string>([[root.id, '']]);
      const byParent = new Map<string | null, typeof folders>();
      for (const folder of folders) {
        const siblings = byParent.get(folder.parent_id);
        if (siblings) siblings.push(folder);
        else byParent.set(folder.parent_id, [folder]);
      }
      const directories: ZipEntry[] = [];
      const queue = [root.id];
      for (let next = 0; next < queue.length; next += 1) {
        const parentId = queue[next] as string;
        for (const child of byParent.get(parentId) ?? []) {
          const prefix = `${prefixOf.get(parentId)}${child.name}/`;
          prefixOf.set(child.id, prefix);
          directories.push({ path: prefix, modifiedAt: new Date(child.updated_at) });
          queue.push(child.id);
        }
      }
      const files = (await deps.files.listLiveInFolders(userId, [...prefixOf.keys()])).map(
        (file): ZipEntry => ({
          path: `${prefixOf.get(file.folder_id as string)}${file.name}`,
          modifiedAt: new Date(file.updated_at),
          file: zipFileOf(deps.blobs, file),
        }),
      );
      const entries = [...directories, ...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      // Refused while an error can still be answered, not as a zip cut off midway.
      const tooLong = pathTooLongForZip(entries);
      if (tooLong !== undefined) throw pathTooLong(tooLong);
      return {
        name: `${root.name}.zip`,
        zip: createZipArchive(entries, { compress: await deps.compressionEnabled(userId) }),
      };
    },
  };
}

/** A stored file as an archive member, its bytes read from the blob store as the archive is written. */
export function zipFileOf(blobs: Pick<BlobStore, 'readInto' | 'localPath'>, file: Pick<FileRow, 'blob_key' | 'size' | 'crc32'>): ZipEntry['file'] {
  return {
    size: Number(file.size),
    crc32: Number(file.crc32),
    read: (target, targetOffset, position, length) => blobs.readInto(file.blob_key, { start: position, end: position + length - 1 }, target, targetOffset),
    localPath: blobs.localPath(file.blob_key),
  };
}

export type FolderArchiveService = ReturnType<typeof createFolderArchiveService>;
