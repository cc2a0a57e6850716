/**
 * Where the client puts what others share with the caller: the same layout and names as
 * WebDAV's `/dav/Shared with me/` (apps/server/src/modules/dav/dav-shared.ts, which the client
 * may not import), so a person sees the same names in both.
 */
import { nameKey } from '@cloudvault/contract/validation';

/** The local folder holding the shares. Virtual: never made or deleted on the server. */
export const SHARED_WITH_ME = 'Shared with me';

/** Where the caller's own top-level item named "Shared with me" (any case) shows locally. */
export const OWN_SHARED_WITH_ME = 'Shared with me (My Files)';

/** Whether a top-level name is the shares' folder (compared as the server compares names). */
export const isSharedWithMe = (name: string) => nameKey(name) === nameKey(SHARED_WITH_ME);

/** A folder or file shared privately with the caller, as GET /api/shared-with-me lists it. */
export interface SharedRoot {
  kind: 'folder' | 'file';
  id: string;
  name: string;
  shareId: string;
  /** The owner as shown to the caller: "Ann Lee", or "Ann" when the last name is hidden. */
  ownerLabel: string;
}

/** The name with a note before a file's extension ("report (Ann Lee).pdf"), or after a folder's name. */
function withNote(item: SharedRoot, note: string): string {
  const dot = item.name.lastIndexOf('.');
  if (item.kind === 'folder' || dot <= 0) return `${item.name} (${note})`;
  return `${item.name.slice(0, dot)} (${note})${item.name.slice(dot)}`;
}

/**
 * The local name of each shared item (by share root id): its own name, unless another shared
 * item has the same (compared as the server compares names); then each of them is named with
 * its owner ("Photos (Ann Lee)"), and where one owner shared two of one name, with the first
 * eight characters of the share's id too ("Photos (Ann Lee, 0c1d2e3f)"). The same shares get
 * the same names whatever order they come in.
 */
export function nameSharedRoots(items: readonly SharedRoot[]): Map<string, string> {
  const clashing = (names: string[]) => {
    const counts = new Map<string, number>();
    for (const name of names) counts.set(nameKey(name), (counts.get(nameKey(name)) ?? 0) + 1);
    return (name: string) => (counts.get(nameKey(name)) ?? 0) > 1;
  };
  const plainClash = clashing(items.map((item) => item.name));
  const withOwner = items.map((item) => (plainClash(item.name) ? withNote(item, item.ownerLabel) : item.name));
  const ownerClash = clashing(withOwner);
  return new Map(
    items.map((item, index) => {
      const named = withOwner[index] as string;
      return [item.id, ownerClash(named) ? withNote(item, `${item.ownerLabel}, ${item.shareId.slice(0, 8)}`) : named];
    }),
  );
}
