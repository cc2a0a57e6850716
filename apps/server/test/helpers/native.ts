import { createRequire } from 'node:module';
import type { NativeAddon } from '../../src/lib/native-addon.ts';

/** The same module object the server uses, so tests can watch which way bytes go. */
export const native = createRequire(import.meta.url)('@cloudvault/native') as NativeAddon;

/** Local blobs on Linux go out with the addon's sendfile; S3 blobs have no file to send. */
export const SENDS_FILES = process.platform === 'linux' && process.env.TEST_STORAGE !== 's3';
