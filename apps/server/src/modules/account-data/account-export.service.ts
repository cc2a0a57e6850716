import zlib from 'node:zlib';
import type { BlobStore } from '../../adapters/blob-store/blob-store.ts';
import { pathTooLongForZip as pathTooLong } from '../../lib/errors.ts';
import { createZipArchive, pathTooLongForZip, type ZipArchive, type ZipEntry } from '../../lib/zip-writer.ts';
import { zipFileOf } from '../files/folder-archive.service.ts';
import { presentFile } from '../files/files.presenter.ts';
import { presentFolder } from '../folders/folders.presenter.ts';
import type { AccountDataRepository } from './account-data.repository.ts';

/**
 * GET /api/user/export: one streamed zip with account.json at the top and every file under
 * files/<its folder path>/, read from the blob store as the zip is written.
 */
export function createAccountExportService(deps: {
  data: Pick<AccountDataRepository, 'liveFolders' | 'liveFiles'>;
  blobs: Pick<BlobStore, 'readInto'>;
  /** What account.json holds besides folders and files (docs/api.md#account): user, settings, billing, shares. */
  accountRecord(userId: string): Promise<Record<string, unknown>>;
  compressionEnabled(userId: string): Promise<boolean>;
  clock: { now(): Date };
}) {
  return {
    async export(userId: string): Promise<{ name: string; zip: ZipArchive }> {
      const [folders, files, record, compress] = await Promise.all([
        deps.data.liveFolders(userId),
        deps.data.liveFiles(userId),
        deps.accountRecord(userId),
        deps.compressionEnabled(userId),
      ]);
      const byId = new Map(folders.map((folder) => [folder.id, folder]));
      const prefixes = new Map<string, string>();
      // Names are already safe (no separators, never . or ..), so joining them cannot escape files/.
      const prefixOf = (folderId: string | null, depth = 0): string => {
        if (folderId === null) return 'files/';
        const known = prefixes.get(folderId);
        if (known !== undefined) return known;
        const folder = byId.get(folderId);
        const prefix = folder && depth < 10_000 ? `${prefixOf(folder.parent_id, depth + 1)}${folder.name}/` : 'files/';
        prefixes.set(folderId, prefix);
        return prefix;
      };

      const account = Buffer.from(
        JSON.stringify({ ...record, folders: folders.map(presentFolder), files: files.map(presentFile) }, null, 2),
      );
      const now = deps.clock.now();
      const entries: ZipEntry[] = [
        {
          path: 'account.json',
          modifiedAt: now,
          file: {
            size: account.length,
            crc32: zlib.crc32(account),
            read: async (target, targetOffset, position, length) => void account.copy(target, targetOffset, position, position + length),
          },
        },
        { path: 'files/', modifiedAt: now },
        ...folders.map((folder) => ({ path: prefixOf(folder.id), modifiedAt: new Date(folder.updated_at) })),
        ...files.map((file): ZipEntry => ({
          path: `${prefixOf(file.folder_id)}${file.name}`,
          modifiedAt: new Date(file.updated_at),
          file: zipFileOf(deps.blobs, file),
        })),
      ];
      const tooLong = pathTooLongForZip(entries);
      if (tooLong !== undefined) throw pathTooLong();
      return { name: `CloudVault-data-${now.toISOString().slice(0, 10)}.zip`, zip: createZipArchive(entries, { compress }) };
    },
  };
}

export type AccountExportService = ReturnType<typeof createAccountExportService>;
