import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsCommand,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertValidKey,
  assertValidRange,
  BlobNotFoundError,
  type BlobStore,
  type ByteRange,
  isValidKey,
  type PutResult,
  type StoredBlob,
  type UnfinishedUpload,
} from './blob-store.ts';
import { createHashingStream } from './hashing-stream.ts';
import { failFastWhileUnavailable } from './store-availability.ts';

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** For MinIO, Ceph RGW, R2 and the like; AWS when absent. */
  endpoint?: string;
  /** Both or neither; without them the SDK's default chain (env, profile, instance role) applies. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `bucket` in the path instead of the host name: MinIO and most self-hosted servers need it. */
  forcePathStyle?: boolean;
  /** How long a connection to the store may take to open. */
  connectTimeoutMs: number;
  /**
   * How long a connection may stay silent before the request is abandoned, a download's
   * body included: what ends a stalled store's requests. An idle bound rather than a total
   * one, so that a slow but moving transfer is never cut.
   */
  idleTimeoutMs: number;
  /** Tries of each request, the first included (the SDK's standard retry strategy: 5xx, throttling, timeouts, with backoff). */
  maxAttempts: number;
  /**
   * Where a copy switches from one CopyObject to a multipart copy of UploadPartCopy parts,
   * and the parts' size: S3's limits (5 GiB, 1 GiB parts) unless a test lowers them, so
   * the multipart path runs without making 5 GiB.
   */
  multipartCopy?: { above: number; partBytes: number };
}

/**
 * What a download piped from a GET's body holds at most: the body's and the response's
 * stream buffers (16 KiB marks) with a socket read (up to 64 KiB) in each, with room to spare.
 */
const S3_STREAM_BYTES = 256 * 1024;
/** Every blob sits under this prefix so the bucket can be shared with other data. */
const PREFIX = 'blobs/';
/**
 * 8 MiB parts, 4 in flight: memory per upload is bounded whatever the size (a 1 GiB put
 * peaked at ~120 MiB more RSS, the same as 256 MiB), and S3's 10,000-part cap allows ~80 GB.
 */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 4;

/**
 * Objects up to 5 GiB (the most one CopyObject may copy) are copied whole; larger ones in
 * 1 GiB UploadPartCopy parts, so 10,000 parts reach S3's 5 TiB object limit.
 */
const MULTIPART_COPY = { above: 5 * 1024 ** 3, partBytes: 1024 ** 3 };

/** The client of the bucket the options name; also the one presigned download URLs are made with. */
export function createS3Client(options: S3BlobStoreOptions): S3Client {
  return new S3Client(s3ClientConfig(options));
}

/** How every S3 client of the server is made, @tus/s3-store's included: region, endpoint, credentials, checksums, timeouts and retries. */
export function s3ClientConfig(options: S3BlobStoreOptions): S3ClientConfig {
  return {
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // The SDK's newer default adds CRC checksum headers and trailers that MinIO, Ceph,
    // R2 and s3rver versions reject or ignore; we compute our own sha256 and CRC32 anyway.
    // (A presigned GET would otherwise sign a checksum-mode header a browser never sends.)
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // The SDK waits forever by default: a stalled store held an upload's answer for minutes.
    requestHandler: { connectionTimeout: options.connectTimeoutMs, socketTimeout: options.idleTimeoutMs },
    retryMode: 'standard',
    maxAttempts: options.maxAttempts,
  };
}

/** The object that holds a blob: checked, so no key can become another prefix. */
export function s3ObjectKey(key: string): string {
  assertValidKey(key);
  return PREFIX + key;
}

/**
 * Blobs as objects in an S3-compatible bucket. Uploads go through lib-storage's multipart
 * Upload, fed by the shared hashing stream, so the body streams once and is never held
 * whole in memory. S3 only makes an object visible when its upload completes, so a failed
 * upload leaves no partial object.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const { bucket } = options;
  const client = createS3Client(options);
  const multipartCopy = options.multipartCopy ?? MULTIPART_COPY;
  failFastWhileUnavailable(client);

  async function deleteObject(Key: string): Promise<void> {
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key }));
  }

  async function get(key: string, range?: ByteRange): Promise<Readable> {
    const Key = s3ObjectKey(key);
    if (range) assertValidRange(range);
    let response;
    try {
      response = await client.send(new GetObjectCommand({ Bucket: bucket, Key, Range: range && `bytes=${range.start}-${range.end}` }));
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFoundError(key);
      throw error;
    }
    const { Body, ContentRange } = response;
    // In Node the SDK's body is an http.IncomingMessage, a Readable.
    if (!(Body instanceof Readable)) throw new Error('The S3 response body is not a Node stream');
    if (range && !servesRange(ContentRange, range)) {
      // HTTP lets a server ignore Range; serving its whole body as the range would hand
      // the client wrong bytes (a broken video seek, a corrupt resumed download).
      Body.destroy();
      throw new Error(`S3 answered range ${ContentRange ?? '(none)'} for bytes=${range.start}-${range.end}`);
    }
    return Body;
  }

  return {
    async put(key, body, { maxBytes } = {}): Promise<PutResult> {
      const Key = s3ObjectKey(key);
      const hashing = createHashingStream({ maxBytes });
      // pipeline destroys the hashing stream with the body's error, which ends the upload's read loop.
      const piping = pipeline(body, hashing.stream).catch(() => {});
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key, Body: hashing.stream },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
        await piping;
        return hashing.result();
      } catch (error) {
        // The stream's own error (BlobTooLargeError, the client's abort): it says more than
        // what the upload reports, which may be a failed AbortMultipartUpload after it.
        const streamError = hashing.stream.errored;
        // Not upload.abort(): in lib-storage it only makes done() reject at once while the
        // parts in flight carry on. Awaiting done() instead lets the Upload stop reading, wait
        // for those parts and send AbortMultipartUpload itself before we get here.
        hashing.stream.destroy();
        await piping;
        if (!streamError) {
          // S3 itself failed, so a PutObject or CompleteMultipartUpload may have succeeded with
          // its answer lost: remove that object. After a stream error none was sent (the body
          // never ended), and deleting would only destroy an older blob under the same key.
          await deleteObject(Key).catch(() => {});
        }
        throw streamError ?? error;
      }
    },

    async open(key, range) {
      const body = await get(key, range);
      return {
        writeTo: (destination) => pipeline(body, destination, { end: false }),
        bufferBytes: S3_STREAM_BYTES,
        close: async () => void body.destroy(),
      };
    },

    async readInto(key, range, target, targetOffset) {
      const length = range.end - range.start + 1;
      const body = await get(key, range);
      let filled = 0;
      for await (const chunk of body as AsyncIterable<Buffer>) {
        if (filled + chunk.length > length) {
          body.destroy();
          throw new Error(`S3 sent more than the ${length} bytes asked for`);
        }
        filled += chunk.copy(target, targetOffset + filled);
      }
      // S3 cuts a range at the object's end: fewer bytes means the blob is shorter than stored.
      if (filled !== length) throw new Error(`The blob ended ${length - filled} bytes before the range did`);
    },

    async copy(fromKey, toKey) {
      const CopySource = `${bucket}/${s3ObjectKey(fromKey)}`;
      const Key = s3ObjectKey(toKey);
      let size: number;
      try {
        size = Number((await client.send(new HeadObjectCommand({ Bucket: bucket, Key: s3ObjectKey(fromKey) }))).ContentLength);
      } catch (error) {
        if (isNotFound(error)) throw new BlobNotFoundError(fromKey);
        throw error;
      }
      if (size <= multipartCopy.above) {
        await client.send(new CopyObjectCommand({ Bucket: bucket, Key, CopySource }));
        return;
      }
      // As with put, the object appears only when the upload completes; a node killed before
      // leaves an unfinished upload, which the sweeper aborts.
      const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key }));
      try {
        const Parts = [];
        for (let start = 0, PartNumber = 1; start < size; start += multipartCopy.partBytes, PartNumber += 1) {
          const end = Math.min(start + multipartCopy.partBytes, size) - 1;
          const part = await client.send(
            new UploadPartCopyCommand({ Bucket: bucket, Key, UploadId, PartNumber, CopySource, CopySourceRange: `bytes=${start}-${end}` }),
          );
          Parts.push({ PartNumber, ETag: part.CopyPartResult?.ETag });
        }
        await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key, UploadId, MultipartUpload: { Parts } }));
      } catch (error) {
        await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId })).catch(() => {});
        throw error;
      }
    },

    async delete(key) {
      // S3 answers 204 for missing keys too, so this is idempotent as is.
      await deleteObject(s3ObjectKey(key));
    },

    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: s3ObjectKey(key) }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },

    async ping() {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
    },

    async *list(pageSize = 1000) {
      // ListObjects (v1) paged by Marker, the last key seen: V2's continuation tokens are
      // opaque per server, and s3rver cannot make them on Node 22 and later.
      let Marker: string | undefined;
      for (;;) {
        const page = await client.send(new ListObjectsCommand({ Bucket: bucket, Prefix: PREFIX, MaxKeys: pageSize, Marker }));
        const blobs: StoredBlob[] = [];
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(PREFIX.length) ?? '';
          if (isValidKey(key)) blobs.push({ key, modifiedAt: object.LastModified ?? new Date(0) });
        }
        if (blobs.length > 0) yield blobs;
        Marker = page.Contents?.at(-1)?.Key;
        if (!page.IsTruncated || Marker === undefined) return;
      }
    },

    async *listUnfinished(key) {
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      for (;;) {
        const page = await client.send(
          new ListMultipartUploadsCommand({
            Bucket: bucket,
            Prefix: key === undefined ? PREFIX : s3ObjectKey(key),
            KeyMarker,
            UploadIdMarker,
          }),
        );
        const uploads: UnfinishedUpload[] = (page.Uploads ?? []).flatMap((upload) => {
          const uploadKey = upload.Key?.slice(PREFIX.length) ?? '';
          // A prefix also matches longer keys: only this blob's uploads when a key is given.
          if (!upload.UploadId || !isValidKey(uploadKey) || (key !== undefined && uploadKey !== key)) return [];
          return [{ key: uploadKey, startedAt: upload.Initiated ?? new Date(0), ref: upload.UploadId }];
        });
        if (uploads.length > 0) yield uploads;
        if (!page.IsTruncated) return;
        KeyMarker = page.NextKeyMarker;
        UploadIdMarker = page.NextUploadIdMarker;
      }
    },

    async discardUnfinished(upload) {
      if (upload.key === undefined) return;
      try {
        await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: s3ObjectKey(upload.key), UploadId: upload.ref }));
      } catch (error) {
        if (!(error instanceof S3ServiceException && error.name === 'NoSuchUpload')) throw error;
      }
    },
  };
}

/** Whether a Content-Range answer covers the range asked for (S3 cuts the end at the blob's size). */
function servesRange(contentRange: string | undefined, range: ByteRange): boolean {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(contentRange ?? '');
  if (!match) return false;
  const [start, end, size] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return start === range.start && (end === range.end || (end < range.end && end === size - 1));
}

/**
 * NoSuchKey on GET; HEAD has no body, so only its status (404, named NotFound) tells.
 * A missing bucket must not pass for a missing blob: that is a configuration error.
 */
function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException) || error.name === 'NoSuchBucket') return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
}
