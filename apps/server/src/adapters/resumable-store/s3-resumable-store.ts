import { S3Store } from '@tus/s3-store';
import {
  AbortMultipartUploadCommand,
  DeleteObjectsCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { createS3Client, s3ClientConfig, s3ObjectKey, type S3BlobStoreOptions } from '../blob-store/s3-blob-store.ts';
import type { ResumableStore } from './resumable-store.ts';

/** tus's parts are S3 multipart parts; 8 MiB as the S3 blob store's puts (memory per upload stays bounded). */
const PART_SIZE = 8 * 1024 * 1024;

/**
 * tus uploads as S3 multipart uploads of the blob's own object (`blobs/<key>`): the last
 * PATCH completes the multipart upload and the object is the blob, with nothing to copy.
 * The S3 BlobStore lists an unfinished one as an unfinished upload of `key`, so the storage
 * jobs abort it with its reservation; @tus/s3-store's `<object>.info` and `<object>.part`
 * objects (names no blob key can have) are removed here.
 */
export function createS3ResumableStore(options: S3BlobStoreOptions): ResumableStore {
  const client = createS3Client(options);
  const datastore = new S3Store({
    partSize: PART_SIZE,
    // As the blob store's client: the same checksums (s3rver, MinIO and others reject the
    // SDK's default ones), timeouts and retries (docs/decisions/0040-storage-faults.md).
    s3ClientConfig: { bucket: options.bucket, ...s3ClientConfig(options) },
  });
  const removeInfo = async (key: string) => {
    const object = s3ObjectKey(key);
    await client.send(
      new DeleteObjectsCommand({ Bucket: options.bucket, Delete: { Objects: [{ Key: `${object}.info` }, { Key: `${object}.part` }] } }),
    );
  };
  /**
   * An empty upload gets no PATCH, so no part ever completes its multipart upload (and S3
   * has no multipart object without parts): the blob is put empty and the multipart upload
   * aborted. Each step checks first, so a run after a crash finishes the job.
   */
  const finishEmpty = async (key: string) => {
    const object = s3ObjectKey(key);
    const exists = await client.send(new HeadObjectCommand({ Bucket: options.bucket, Key: object })).then(
      () => true,
      () => false,
    );
    if (!exists) await client.send(new PutObjectCommand({ Bucket: options.bucket, Key: object, Body: new Uint8Array(0) }));
    const pending = await client.send(new ListMultipartUploadsCommand({ Bucket: options.bucket, Prefix: object }));
    for (const upload of pending.Uploads ?? []) {
      if (upload.Key === object)
        await client.send(new AbortMultipartUploadCommand({ Bucket: options.bucket, Key: object, UploadId: upload.UploadId }));
    }
  };
  return {
    datastore,
    storeIdOf: s3ObjectKey,
    keyOf: (storeId) => storeId.slice(storeId.lastIndexOf('/') + 1),
    async isComplete(key, length) {
      try {
        const upload = await datastore.getUpload(s3ObjectKey(key));
        return upload.offset === length;
      } catch {
        // No multipart upload any more: completed (or never begun).
        const object = await client.send(new HeadObjectCommand({ Bucket: options.bucket, Key: s3ObjectKey(key) })).catch(() => undefined);
        return object?.ContentLength === length;
      }
    },
    async finish(key, length) {
      // Otherwise the multipart upload was completed by the PATCH that wrote the last byte.
      if (length === 0) await finishEmpty(key);
      await removeInfo(key);
    },
    async remove(key) {
      await datastore.remove(s3ObjectKey(key)).catch(() => {});
      await removeInfo(key);
    },
  };
}
