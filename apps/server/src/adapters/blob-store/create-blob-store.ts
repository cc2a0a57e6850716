import type { BlobStore } from './blob-store.ts';
import { createLocalBlobStore } from './local-blob-store.ts';
import type { S3BlobStoreOptions } from './s3-blob-store.ts';
import type { PresignedUrls } from './s3-presigned-urls.ts';

export type BlobStoreOptions = { driver: 'local'; root: string } | ({ driver: 's3' } & S3BlobStoreOptions);

/** Picks the driver from configuration; the rest of the server only sees BlobStore. */
export async function createBlobStore(options: BlobStoreOptions): Promise<BlobStore> {
  switch (options.driver) {
    case 'local':
      return createLocalBlobStore({ root: options.root });
    case 's3': {
      const { driver: _driver, ...s3Options } = options;
      // The AWS SDK costs tens of MB of memory: loaded only when S3 is configured.
      const { createS3BlobStore } = await import('./s3-blob-store.ts');
      return createS3BlobStore(s3Options);
    }
  }
}

/** Presigned download URLs of an S3 store (docs/decisions/0022); like the store, loaded only with S3. */
export async function createPresignedUrls(options: S3BlobStoreOptions): Promise<PresignedUrls> {
  const { createS3PresignedUrls } = await import('./s3-presigned-urls.ts');
  return createS3PresignedUrls(options);
}
