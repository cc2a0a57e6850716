/**
 * What the service worker keeps on the device for the signed-in account
 * (src/service-worker, docs/decisions/0066-offline-and-sharing-in.md), named here because the
 * page clears it: every cache below belongs to the account signed in on this device, and goes
 * when that session ends. The app shell's precache is nobody's and stays.
 */
export const DEVICE_CACHES = {
  /** The API answers the views read: profile, listings, Recent, Starred, storage. */
  data: 'cloudvault-data',
  /** The thumbnails the user has seen (their addresses carry the content tag). */
  thumbnails: 'cloudvault-thumbnails',
  /** The files the user marked "available offline". */
  offlineFiles: 'cloudvault-offline-files',
  /** Files shared into the app from the phone's share sheet, until they are uploaded or dismissed. */
  sharedIn: 'cloudvault-shared-in',
} as const;

/** Set by the service worker on an API answer it gave from the device because the network did not answer. */
export const DEVICE_COPY_HEADER = 'X-CloudVault-Device-Copy';
