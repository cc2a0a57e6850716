import type { BlobStoreOptions } from '../blob-store/create-blob-store.ts';
import { createLocalResumableStore } from './local-resumable-store.ts';
import type { ResumableStore } from './resumable-store.ts';

/** The tus store beside the configured BlobStore; like it, the S3 one loads the AWS SDK only when used. */
export async function createResumableStore(options: BlobStoreOptions): Promise<ResumableStore> {
  if (options.driver === 'local') return createLocalResumableStore(options.root);
  const { driver: _driver, ...s3Options } = options;
  const { createS3ResumableStore } = await import('./s3-resumable-store.ts');
  return createS3ResumableStore(s3Options);
}
