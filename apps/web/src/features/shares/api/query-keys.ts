/** Query keys of sharing: the owner's shares, what others shared, and public links. */
export const shareKeys = {
  mine: ['shares', 'mine'] as const,
  sharedWithMe: ['shares', 'with-me'] as const,
  /** A link as a visitor sees it; another access grant is another answer. */
  publicShare: (token: string, access: string | null) => ['shares', 'public', token, access] as const,
  publicItems: (token: string, folderId: string | null, access: string | null) => ['shares', 'public', token, access, 'items', folderId] as const,
};
