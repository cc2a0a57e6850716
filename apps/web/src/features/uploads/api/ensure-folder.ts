import type { Folder } from '@cloudvault/contract/folders';
import { nameKey } from '@cloudvault/contract/validation';
import { api, ApiError } from '../../../lib/api-client';

/**
 * The folder `name` inside `parentId`, created when missing (a dropped desktop folder
 * merges into one of the same name, docs/decisions/0050-name-clashes.md): POST
 * /api/user/folders, and on 409 the existing one from GET /api/user/folders, found by the
 * server's own rule for the same name (nameKey). `existed`: its files may clash.
 */
export async function ensureFolder(name: string, parentId: string | null): Promise<Folder & { existed: boolean }> {
  try {
    const { folder } = await api.post<{ folder: Folder }>('/user/folders', { name, parentId });
    return { ...folder, existed: false };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 409) throw error;
    const { folders } = await api.get<{ folders: Folder[] }>('/user/folders', { query: { parentId } });
    const wanted = nameKey(name.trim());
    const existing = folders.find((folder) => nameKey(folder.name) === wanted);
    if (!existing) throw error;
    return { ...existing, existed: true };
  }
}
