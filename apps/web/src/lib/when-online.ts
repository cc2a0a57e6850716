/**
 * Resolves at once when the browser has a network, else once it has one again: an upload
 * chosen offline waits for the network instead of failing (docs/decisions/0066-offline-and-sharing-in.md).
 * `onWaiting(true)` is called when it has to wait. Rejects with an AbortError when `signal`
 * aborts first (the user cancelled or paused the upload).
 */
export function whenOnline(signal: AbortSignal, onWaiting?: (waiting: boolean) => void): Promise<void> {
  if (signal.aborted) return Promise.reject(new DOMException('Upload stopped', 'AbortError'));
  if (navigator.onLine) return Promise.resolve();
  onWaiting?.(true);
  return new Promise((resolve, reject) => {
    const online = () => {
      signal.removeEventListener('abort', aborted);
      resolve();
    };
    const aborted = () => {
      window.removeEventListener('online', online);
      reject(new DOMException('Upload stopped', 'AbortError'));
    };
    window.addEventListener('online', online, { once: true });
    signal.addEventListener('abort', aborted, { once: true });
  });
}
