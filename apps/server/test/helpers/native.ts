import { createRequire } from 'node:module';
import type { NativeAddon } from '../../src/lib/native-addon.ts';

/**
 * The same module object the server uses, so tests can watch which way bytes go. Loaded here
 * even under CLOUDVAULT_NATIVE=0, where the server never calls it: its spies then prove that.
 */
export const native = createRequire(import.meta.url)('@cloudvault/native') as NativeAddon;

/** CLOUDVAULT_NATIVE=0: test servers run without the addon (npm test's portable phase). */
export const NATIVE_ON = process.env.CLOUDVAULT_NATIVE !== '0';

/** Local blobs on Linux go out with the addon's sendfile; S3 blobs have no file to send, nor does a server without the addon. */
export const SENDS_FILES = process.platform === 'linux' && process.env.TEST_STORAGE !== 's3' && NATIVE_ON;
