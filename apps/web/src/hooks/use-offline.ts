import { useSyncExternalStore } from 'react';
import { isShowingDeviceCopy, onDeviceCopyChange } from '../lib/device-data';

function onConnectionChange(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/**
 * Whether the views are the device's copy rather than the server's: the browser has no
 * network, or the last answer came from the device because the network did not give one.
 */
export function useOffline(): boolean {
  const offline = useSyncExternalStore(
    onConnectionChange,
    () => !navigator.onLine,
    () => false,
  );
  const deviceCopy = useSyncExternalStore(onDeviceCopyChange, isShowingDeviceCopy, () => false);
  return offline || deviceCopy;
}
