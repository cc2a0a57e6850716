import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The open folder lives in the address (`/dashboard?folder=<id>`), so reload, back and
 * forward and a pasted address all show the same folder. null is home ('My Files').
 */
export function useCurrentFolder(): [string | null, (folderId: string | null, options?: { replace?: boolean; state?: unknown }) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get('folder');
  const folderId = raw && raw !== 'null' ? raw : null;
  const openFolder = useCallback(
    (next: string | null, options?: { replace?: boolean; state?: unknown }) => {
      setParams(next ? { folder: next } : {}, { replace: options?.replace ?? false, state: options?.state });
    },
    [setParams],
  );
  return [folderId, openFolder];
}
