import { useCallback, useState } from 'react';

const keyOf = (token: string) => `share-access:${token}`;

function read(token: string): string | null {
  try {
    return window.sessionStorage.getItem(keyOf(token));
  } catch {
    return null;
  }
}

/**
 * The access grant of an unlocked password link, kept for the tab's session so a reload
 * does not ask for the password again within the grant's hour. null: not unlocked.
 */
export function useShareAccess(token: string): [string | null, (access: string | null) => void] {
  const [access, setAccess] = useState(() => read(token));
  const update = useCallback(
    (next: string | null) => {
      try {
        if (next) window.sessionStorage.setItem(keyOf(token), next);
        else window.sessionStorage.removeItem(keyOf(token));
      } catch {
        // Storage unavailable: the grant lives in memory only.
      }
      setAccess(next);
    },
    [token],
  );
  return [access, update];
}
