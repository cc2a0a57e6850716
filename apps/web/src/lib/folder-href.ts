/** The address of a folder of the file manager, for links. */
export function folderHref(folderId: string | null): string {
  return folderId ? `/dashboard?folder=${encodeURIComponent(folderId)}` : '/dashboard';
}
