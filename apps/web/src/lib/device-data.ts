import { DEVICE_CACHES, DEVICE_COPY_HEADER } from './device-caches';

/**
 * The signed-in account's data the service worker keeps on this device (lib/device-caches.ts)
 * seen from the page: deleting it when a session starts or ends, and whether the views show
 * the device's copy because the network did not answer.
 */

/**
 * Deletes everything the device keeps for an account, every session's. `keepSharedIn`: the
 * files the share sheet sent before the user signed in wait for the session starting now.
 * Without Cache Storage (an insecure origin) there is nothing.
 */
export async function forgetDeviceData({ keepSharedIn = false } = {}): Promise<void> {
  if (typeof caches === 'undefined') return;
  const kept = Object.values(DEVICE_CACHES).filter((cache) => !(keepSharedIn && cache === DEVICE_CACHES.sharedIn));
  const names = await caches.keys();
  await Promise.all(
    names.filter((name) => kept.some((cache) => name === cache || name.startsWith(`${cache}-`))).map((name) => caches.delete(name)),
  );
}

let showingDeviceCopy = false;
const listeners = new Set<() => void>();

/** Notes where an API answer came from: the device (the network did not answer) or the network. */
export function noteAnswerSource(response: Response): void {
  const fromDevice = response.headers.has(DEVICE_COPY_HEADER);
  if (fromDevice === showingDeviceCopy) return;
  showingDeviceCopy = fromDevice;
  for (const listener of listeners) listener();
}

/** Whether the last answer the views got was the device's copy. */
export function isShowingDeviceCopy(): boolean {
  return showingDeviceCopy;
}

export function onDeviceCopyChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
