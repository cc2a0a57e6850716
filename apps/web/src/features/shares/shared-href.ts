/** The address of a folder someone shared with the user (null: the list of shared folders). */
export function sharedHref(folderId: string | null): string {
  return folderId ? `/shared?folder=${encodeURIComponent(folderId)}` : '/shared';
}
