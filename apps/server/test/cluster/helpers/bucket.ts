import { ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { S3_CREDENTIALS } from '../../helpers/s3rver.ts';

/** What the bucket holds, seen from outside the nodes: stored objects, and multipart uploads never finished. */
export interface BucketView {
  objectKeys(): Promise<string[]>;
  pendingMultipartUploads(): Promise<Array<{ key: string; uploadId: string }>>;
  close(): void;
}

export function viewBucket(endpoint: string, bucket: string): BucketView {
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: S3_CREDENTIALS });
  return {
    async objectKeys() {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
        keys.push(...(page.Contents ?? []).map((object) => object.Key as string));
        ContinuationToken = page.NextContinuationToken;
      } while (ContinuationToken);
      return keys.sort();
    },
    async pendingMultipartUploads() {
      const listed = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
      return (listed.Uploads ?? []).map((upload) => ({ key: upload.Key as string, uploadId: upload.UploadId as string }));
    },
    close: () => client.destroy(),
  };
}
