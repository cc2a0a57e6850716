import type { CreateFolderBody, Folder, UpdateFolderBody } from '@cloudvault/contract/folders';
import { cleanItemName } from '@cloudvault/contract/validation';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { FoldersRepository } from './folders.repository.ts';
import { presentFolder } from './folders.presenter.ts';

const FOLDER_NOT_FOUND = 'Folder not found';

export interface FoldersServiceDeps {
  folders: FoldersRepository;
  clock: Clock;
}

/** A folder name as typed, or a 400 that says what is wrong with it. */
export function requireItemName(name: string, what: 'folder' | 'file'): string {
  const cleaned = cleanItemName(name);
  if (!cleaned) throw badRequest(`Please enter a ${what} name (1 to 255 characters, not "." or "..")`, 'INVALID_NAME');
  return cleaned;
}

export function createFoldersService({ folders, clock }: FoldersServiceDeps) {
  /** The caller's live folder, or 404 whether it is missing, deleted or someone else's. */
  async function requireFolder(userId: string, id: string) {
    const folder = await folders.findLive(userId, id);
    if (!folder) throw notFound(FOLDER_NOT_FOUND, 'FOLDER_NOT_FOUND');
    return folder;
  }

  /** Resolves a parent id given by the client: null is the root, anything else must be the caller's. */
  async function requireParent(userId: string, parentId: string | null | undefined): Promise<string | null> {
    if (parentId === null || parentId === undefined) return null;
    await requireFolder(userId, parentId);
    return parentId;
  }

  return {
    requireFolder,
    requireParent,

    async list(userId: string, parentId: string | null): Promise<Folder[]> {
      if (parentId !== null) await requireFolder(userId, parentId);
      return (await folders.listLive(userId, parentId)).map(presentFolder);
    },

    async create(userId: string, input: CreateFolderBody): Promise<Folder> {
      const name = requireItemName(input.name, 'folder');
      const parentId = await requireParent(userId, input.parentId);
      const now = clock.now().toISOString();
      const row = { id: newId(), user_id: userId, parent_id: parentId, name, created_at: now, updated_at: now, deleted_at: null, trashed_root: 0 };
      if (!(await folders.insert(row))) throw conflict(`A folder named "${name}" already exists here`, 'NAME_TAKEN');
      return presentFolder(row);
    },

    async path(userId: string, id: string): Promise<Folder[]> {
      const path = await folders.pathTo(userId, id);
      if (path.length === 0) throw notFound(FOLDER_NOT_FOUND, 'FOLDER_NOT_FOUND');
      return path.map(presentFolder);
    },

    async update(userId: string, id: string, input: UpdateFolderBody): Promise<Folder> {
      const folder = await requireFolder(userId, id);
      const name = input.name === undefined ? folder.name : requireItemName(input.name, 'folder');
      let parentId = folder.parent_id;
      if (input.parentId !== undefined) {
        parentId = await requireParent(userId, input.parentId);
        if (parentId !== null) {
          const targetPath = await folders.pathTo(userId, parentId);
          if (targetPath.some((ancestor) => ancestor.id === id)) {
            throw conflict('A folder cannot be moved into itself or one of its sub-folders', 'MOVE_INTO_ITSELF');
          }
        }
      }
      const updatedAt = clock.now().toISOString();
      if (!(await folders.update(userId, id, { name, parent_id: parentId, updated_at: updatedAt }))) {
        throw conflict(`A folder named "${name}" already exists there`, 'NAME_TAKEN');
      }
      return presentFolder({ ...folder, name, parent_id: parentId, updated_at: updatedAt });
    },
  };
}

export type FoldersService = ReturnType<typeof createFoldersService>;
