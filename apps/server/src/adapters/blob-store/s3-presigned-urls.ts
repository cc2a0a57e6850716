import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createS3Client, s3ObjectKey, type S3BlobStoreOptions } from './s3-blob-store.ts';

/** A GET of one blob that the store itself answers, with the headers it must answer with. */
export interface PresignedGet {
  key: string;
  /** When the URL was signed; the store refuses it `expiresInSeconds` later, by its own clock. */
  signedAt: Date;
  expiresInSeconds: number;
  /** S3's response-* overrides: the object's own headers are not ours (docs/api.md#downloads). */
  contentType: string;
  contentDisposition: string;
  cacheControl: string;
}

/**
 * What an S3 store lets the downloads module know, so that it can send a client to the
 * bucket instead of piping the bytes through the server (docs/decisions/0022), as
 * `LocalFiles` lets it use sendfile for a local store.
 */
export interface PresignedUrls {
  getUrl(request: PresignedGet): Promise<string>;
}

/** Presigned GetObject URLs of the bucket a store with `options` uses. Signing is local: no request reaches S3. */
export function createS3PresignedUrls(options: S3BlobStoreOptions): PresignedUrls {
  const client = createS3Client(options);
  return {
    getUrl(request) {
      const command = new GetObjectCommand({
        Bucket: options.bucket,
        Key: s3ObjectKey(request.key),
        ResponseContentType: request.contentType,
        ResponseContentDisposition: request.contentDisposition,
        ResponseCacheControl: request.cacheControl,
      });
      return getSignedUrl(client, command, { expiresIn: request.expiresInSeconds, signingDate: request.signedAt });
    },
  };
}
