import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getLatestCursor, readChangeStream } from '../api/change-feed';
import { createChangeApplier } from '../change-applier';
import { startChangeStream } from '../change-stream';

/**
 * Keeps the signed-in tab's screens current with changes made anywhere else (another tab,
 * a phone, a collaborator, WebDAV): one change stream per tab while `userId` is signed in,
 * each change invalidating only the answers it touched. Mounted once, by the signed-in layout.
 */
export function useLiveChanges(userId: string | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    const applier = createChangeApplier(queryClient);
    const stream = startChangeStream(
      { latest: getLatestCursor, stream: readChangeStream },
      { onChanges: (page) => applier.add(page.changes), onReset: () => applier.invalidateEverything() },
    );
    const wake = () => stream.wake();
    const drop = () => stream.drop();
    const shown = () => {
      if (document.visibilityState === 'visible') stream.wake();
    };
    window.addEventListener('online', wake);
    window.addEventListener('offline', drop);
    document.addEventListener('visibilitychange', shown);
    return () => {
      window.removeEventListener('online', wake);
      window.removeEventListener('offline', drop);
      document.removeEventListener('visibilitychange', shown);
      stream.stop();
      applier.dispose();
    };
  }, [queryClient, userId]);
}
