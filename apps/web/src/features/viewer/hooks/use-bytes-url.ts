import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import type { FileSource } from '../../../lib/file-source';

/**
 * The address the browser loads a file's bytes from (lib/file-source.ts), asked for when a
 * renderer needs it. `renew` asks again: a signed link lives minutes, a long video outlives it.
 * `unreachable`: it failed because nothing answered (offline) and the device keeps no copy.
 */
export function useBytesUrl(
  source: FileSource,
  fileId: string,
  wanted = true,
): { url: string | null; failed: boolean; unreachable: boolean; renew: () => void } {
  const [state, setState] = useState<{ key: string; url: string | null; failed: boolean; unreachable: boolean }>({
    key: '',
    url: null,
    failed: false,
    unreachable: false,
  });
  const [round, setRound] = useState(0);
  const key = `${fileId}:${round}`;

  useEffect(() => {
    if (!wanted) return;
    let current = true;
    source.bytesUrl(fileId).then(
      (url) => current && setState({ key, url, failed: false, unreachable: false }),
      (error: unknown) => current && setState({ key, url: null, failed: true, unreachable: !(error instanceof ApiError) }),
    );
    return () => {
      current = false;
    };
  }, [source, fileId, wanted, key]);

  const renew = useCallback(() => setRound((value) => value + 1), []);
  // A URL of the previous file is never shown for the next one; a renewed one keeps the old meanwhile.
  const fresh = state.key.startsWith(`${fileId}:`);
  return { url: fresh ? state.url : null, failed: fresh && state.failed, unreachable: fresh && state.unreachable, renew };
}
