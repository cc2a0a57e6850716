import { useCallback, useEffect, useState } from 'react';
import type { FileSource } from '../../../lib/file-source';

/**
 * The address the browser loads a file's bytes from (lib/file-source.ts), asked for when a
 * renderer needs it. `renew` asks again: a signed link lives minutes, a long video outlives it.
 */
export function useBytesUrl(source: FileSource, fileId: string, wanted = true): { url: string | null; failed: boolean; renew: () => void } {
  const [state, setState] = useState<{ key: string; url: string | null; failed: boolean }>({ key: '', url: null, failed: false });
  const [round, setRound] = useState(0);
  const key = `${fileId}:${round}`;

  useEffect(() => {
    if (!wanted) return;
    let current = true;
    source.bytesUrl(fileId).then(
      (url) => current && setState({ key, url, failed: false }),
      () => current && setState({ key, url: null, failed: true }),
    );
    return () => {
      current = false;
    };
  }, [source, fileId, wanted, key]);

  const renew = useCallback(() => setRound((value) => value + 1), []);
  // A URL of the previous file is never shown for the next one; a renewed one keeps the old meanwhile.
  const fresh = state.key.startsWith(`${fileId}:`);
  return { url: fresh ? state.url : null, failed: fresh && state.failed, renew };
}
