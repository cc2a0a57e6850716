import type { Upload } from 'tus-js-client';

/**
 * Offline: a tus upload stops at once rather than spend its retries; back online: it carries
 * on from the server's offset. `start` sends now, or waits for the network when the browser is
 * offline; `cleanUp` stops listening, once the upload has ended one way or another.
 */
export function pauseWhileOffline(
  upload: Pick<Upload, 'start' | 'abort'>,
  onReconnecting?: (waiting: boolean) => void,
): { start(): void; cleanUp(): void } {
  let waitingForNetwork = false;
  const wentOffline = () => {
    waitingForNetwork = true;
    onReconnecting?.(true);
    void upload.abort(false);
  };
  const cameOnline = () => {
    if (!waitingForNetwork) return;
    waitingForNetwork = false;
    upload.start();
  };
  window.addEventListener('offline', wentOffline);
  window.addEventListener('online', cameOnline);
  return {
    start() {
      if (navigator.onLine) upload.start();
      else wentOffline();
    },
    cleanUp() {
      window.removeEventListener('offline', wentOffline);
      window.removeEventListener('online', cameOnline);
    },
  };
}
