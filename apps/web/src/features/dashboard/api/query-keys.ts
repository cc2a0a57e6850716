/**
 * Query keys of the drive. Everything under `driveKeys.all` describes the user's files and
 * folders, so a change that may touch several listings (restore from Trash, a move)
 * invalidates `driveKeys.all`.
 */
export const driveKeys = {
  all: ['drive'] as const,
  folders: (parentId: string | null) => ['drive', 'folders', parentId ?? 'root'] as const,
  files: (folderId: string | null) => ['drive', 'files', folderId ?? 'root'] as const,
  path: (folderId: string) => ['drive', 'path', folderId] as const,
  search: (term: string) => ['drive', 'search', term] as const,
  storage: ['drive', 'storage'] as const,
};
