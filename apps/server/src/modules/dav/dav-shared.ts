import type { ShareOwner } from '@cloudvault/contract/shares';
import { nameKey } from '@cloudvault/contract/validation';

/** The top-level collection where WebDAV shows what others share with the caller (the fixed contract's `/dav/Shared with me/`). */
export const SHARED_WITH_ME = 'Shared with me';

/**
 * Where the caller's own top-level item named "Shared with me" (any case) is served, since
 * the collection of shares takes that path: the item keeps its name in the drive and stays
 * reachable, renamable and deletable through WebDAV under this one.
 */
export const OWN_SHARED_WITH_ME = 'Shared with me (My Files)';

export const isSharedWithMe = (name: string | undefined) => name !== undefined && nameKey(name) === nameKey(SHARED_WITH_ME);
export const isOwnSharedWithMe = (name: string | undefined) => name !== undefined && nameKey(name) === nameKey(OWN_SHARED_WITH_ME);

/** A folder or file shared privately with the caller, as GET /api/shared-with-me lists it. */
export interface SharedItem {
  kind: 'folder' | 'file';
  id: string;
  name: string;
  shareId: string;
  owner: ShareOwner;
}

/** A shared item under the name it has in /dav/Shared with me/. */
export type NamedSharedItem = SharedItem & { davName: string };

const ownerLabel = (owner: ShareOwner) => [owner.firstName, owner.lastName].filter(Boolean).join(' ');

/** The name with a note added before a file's extension ("report (Ann Lee).pdf"), or after a folder's name. */
function withNote(item: SharedItem, note: string): string {
  const dot = item.name.lastIndexOf('.');
  if (item.kind === 'folder' || dot <= 0) return `${item.name} (${note})`;
  return `${item.name.slice(0, dot)} (${note})${item.name.slice(dot)}`;
}

/**
 * The name of each shared item in /dav/Shared with me/: its own name, unless another shared
 * item has the same (names compared as the drive compares them); then each of them is named
 * with its owner as shown to the caller ("Photos (Ann Lee)"), and where the same owner shared
 * two of one name, with the first eight characters of the share's id too ("Photos (Ann Lee,
 * 0c1d2e3f)"). The same shares always get the same names, whatever order they come in.
 */
export function nameSharedItems(items: readonly SharedItem[]): NamedSharedItem[] {
  const clashing = (names: string[]) => {
    const counts = new Map<string, number>();
    for (const name of names) counts.set(nameKey(name), (counts.get(nameKey(name)) ?? 0) + 1);
    return (name: string) => (counts.get(nameKey(name)) ?? 0) > 1;
  };
  const plainClash = clashing(items.map((item) => item.name));
  const withOwner = items.map((item) => (plainClash(item.name) ? withNote(item, ownerLabel(item.owner)) : item.name));
  const ownerClash = clashing(withOwner);
  return items
    .map((item, index) => {
      const named = withOwner[index] as string;
      const davName = ownerClash(named) ? withNote(item, `${ownerLabel(item.owner)}, ${item.shareId.slice(0, 8)}`) : named;
      return { ...item, davName };
    })
    .sort((a, b) => (nameKey(a.davName) < nameKey(b.davName) ? -1 : nameKey(a.davName) > nameKey(b.davName) ? 1 : 0));
}
