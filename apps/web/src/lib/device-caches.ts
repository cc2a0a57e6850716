/**
 * What the service worker keeps on the device for the signed-in account
 * (src/service-worker, docs/decisions/0066-offline-and-sharing-in.md), named here because the
 * page clears it: every cache below belongs to the account signed in on this device, and goes
 * when that session ends (files shared in before signing in stay for the sign-in). The app
 * shell's precache is nobody's and stays.
 */
export const DEVICE_CACHES = {
  /** The API answers the views read: profile, listings, Recent, Starred, storage (one cache per session, see sessionCacheName). */
  data: 'cloudvault-data',
  /** The thumbnails the user has seen, their addresses carrying the content tag (one cache per session). */
  thumbnails: 'cloudvault-thumbnails',
  /** The files the user marked "available offline". */
  offlineFiles: 'cloudvault-offline-files',
  /** Files chosen for upload while offline, until they are sent (features/uploads/waiting-uploads.ts). */
  waitingUploads: 'cloudvault-waiting-uploads',
  /** Files shared into the app from the phone's share sheet, until they are uploaded or dismissed. */
  sharedIn: 'cloudvault-shared-in',
} as const;

/** Set by the service worker on an API answer it gave from the device because the network did not answer. */
export const DEVICE_COPY_HEADER = 'X-CloudVault-Device-Copy';

/**
 * The cache of one session, from the Authorization header its requests carry (a hash of it:
 * the token itself is not written into a name): `cloudvault-data-3f9a…`. Another session's
 * answers can never be read through it.
 */
export async function sessionCacheName(cache: string, authorization: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(authorization));
  const hex = Array.from(new Uint8Array(digest).slice(0, 8), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${cache}-${hex}`;
}
