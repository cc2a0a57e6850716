import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** The slice of s3rver (a Koa app) the helper uses: the package ships no types. */
interface S3rverInstance {
  middleware: KoaMiddleware[];
  store: {
    getObject(bucket: string, key: string, options?: { start?: number; end?: number }): Promise<StoredObject | null>;
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
    putPart(bucket: string, uploadId: string, partNumber: string, content: Readable): Promise<{ md5: string; size: number }>;
  };
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;
type KoaMiddleware = (ctx: any, next: () => Promise<void>) => Promise<void>;
interface StoredObject {
  content: Readable | null;
  range?: { start: number; end: number };
}

// CommonJS without type declarations; required so the interface above types it.
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

export const TEST_BUCKET = 'cloudvault-test';

/** s3rver accepts any signature made with these. */
export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** A running S3-protocol server and what a client needs to reach it. */
export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** Multipart uploads started and neither completed nor aborted: parts a failed put left behind. */
  pendingMultipartUploads(): Promise<string[]>;
  /** The object keys of those uploads. */
  pendingMultipartUploadKeys(): Promise<string[]>;
  /** Sets when an object was last modified, as S3 reports it: an old object without waiting. */
  setObjectTime(key: string, time: Date): Promise<void>;
  /** Sets when every pending multipart upload started, as ListMultipartUploads reports it. */
  setMultipartUploadsTime(time: Date): Promise<void>;
  stop(): Promise<void>;
}

/**
 * s3rver 3.7.1 on 127.0.0.1 and a free port, with its own temp folder and one empty bucket,
 * and five of its gaps filled so the drivers are tested against S3's real behaviour:
 * AbortMultipartUpload (missing: s3rver answers 405, jamhall/s3rver PR #784 was never
 * merged), ListMultipartUploads (NotImplemented), ListParts (405; @tus/s3-store resumes
 * from it), UploadPartCopy (NotImplemented; the copy of objects past 5 GiB) and `Range:
 * bytes=0-0` (s3rver reads the end 0 as "no end" and sends everything).
 */
export async function startS3rver(): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-s3rver-'));
  const uploadsDir = path.join(directory, TEST_BUCKET, '._S3rver_uploads');
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  server.middleware.unshift(
    abortMultipartUpload(directory),
    listMultipartUploads(directory),
    listParts(directory),
    uploadPartCopy(server.store),
  );
  fixFirstByteRange(server.store);
  try {
    const { port } = await server.run();
    return {
      endpoint: `http://127.0.0.1:${port}`,
      bucket: TEST_BUCKET,
      async pendingMultipartUploads() {
        try {
          return await readdir(uploadsDir);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
          throw error;
        }
      },
      async pendingMultipartUploadKeys() {
        const ids = await readdir(uploadsDir).catch(() => []);
        return Promise.all(ids.map((id) => readFile(path.join(uploadsDir, id, 'key'), 'utf8')));
      },
      async setObjectTime(key, time) {
        await utimes(server.store.getResourcePath(TEST_BUCKET, key, 'object'), time, time);
      },
      async setMultipartUploadsTime(time) {
        for (const id of await readdir(uploadsDir).catch(() => []))
          await writeFile(path.join(uploadsDir, id, INITIATED_FILE), time.toISOString());
      },
      async stop() {
        try {
          await server.close();
        } finally {
          await rm(directory, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}

/** The variables that point a server at the bucket of `s3` (docs/configuration.md). */
export function s3StorageEnv(s3: Pick<TestS3Server, 'endpoint' | 'bucket'>): Record<string, string> {
  return {
    STORAGE_DRIVER: 's3',
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}

/** DELETE /bucket/key?uploadId=… drops the upload's parts, as S3 does (404 NoSuchUpload if unknown). */
function abortMultipartUpload(directory: string): KoaMiddleware {
  return async (ctx, next) => {
    const uploadId: unknown = ctx.query.uploadId;
    if (ctx.method !== 'DELETE' || typeof uploadId !== 'string') return next();
    const bucket = decodeURIComponent(String(ctx.path).split('/')[1] ?? '');
    const uploadDir = path.join(directory, bucket, '._S3rver_uploads', uploadId);
    const known =
      /^[0-9a-f]+$/.test(uploadId) &&
      (await stat(uploadDir).then(
        (s) => s.isDirectory(),
        () => false,
      ));
    if (!known) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body =
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>';
      return;
    }
    await rm(uploadDir, { recursive: true, force: true });
    ctx.status = 204;
  };
}

/**
 * GET /bucket?uploads lists the multipart uploads neither completed nor aborted, as S3 does
 * (without paging: a test bucket holds a handful). s3rver keeps each in a folder named by
 * its upload id, holding the key.
 */
/** A start time set by the test (setMultipartUploadsTime), kept beside the upload's parts. */
const INITIATED_FILE = 'initiated-at';

function listMultipartUploads(directory: string): KoaMiddleware {
  return async (ctx, next) => {
    const segments = String(ctx.path).split('/').filter(Boolean);
    if (ctx.method !== 'GET' || segments.length !== 1 || !('uploads' in ctx.query)) return next();
    const bucket = decodeURIComponent(segments[0] ?? '');
    const prefix = typeof ctx.query.prefix === 'string' ? ctx.query.prefix : '';
    const uploadsDir = path.join(directory, bucket, '._S3rver_uploads');
    const ids = await readdir(uploadsDir).catch(() => []);
    const uploads = await Promise.all(
      ids.map(async (id) => {
        const [key, started, setTime] = await Promise.all([
          readFile(path.join(uploadsDir, id, 'key'), 'utf8'),
          stat(path.join(uploadsDir, id)),
          readFile(path.join(uploadsDir, id, INITIATED_FILE), 'utf8').catch(() => undefined),
        ]);
        if (!key.startsWith(prefix)) return '';
        return `<Upload><Key>${escapeXml(key)}</Key><UploadId>${id}</UploadId><Initiated>${setTime ?? started.birthtime.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`;
      }),
    );
    ctx.status = 200;
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${escapeXml(bucket)}</Bucket><KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${uploads.join('')}</ListMultipartUploadsResult>`;
  };
}

/** GET /bucket/key?uploadId=… lists the parts uploaded so far, as S3 does (without paging). */
function listParts(directory: string): KoaMiddleware {
  return async (ctx, next) => {
    const uploadId: unknown = ctx.query.uploadId;
    if (ctx.method !== 'GET' || typeof uploadId !== 'string') return next();
    const [bucketSegment, ...keySegments] = String(ctx.path).split('/').filter(Boolean);
    const bucket = decodeURIComponent(bucketSegment ?? '');
    const uploadDir = path.join(directory, bucket, '._S3rver_uploads', uploadId);
    const names = /^[0-9a-f]+$/.test(uploadId) ? await readdir(uploadDir).catch(() => undefined) : undefined;
    if (!names) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body =
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>';
      return;
    }
    const numbers = names
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (number) => {
        const partPath = path.join(uploadDir, String(number));
        const [stats, etag] = await Promise.all([stat(partPath), md5Of(partPath)]);
        return `<Part><PartNumber>${number}</PartNumber><LastModified>${stats.mtime.toISOString()}</LastModified><ETag>"${etag}"</ETag><Size>${stats.size}</Size></Part>`;
      }),
    );
    const key = keySegments.map(decodeURIComponent).join('/');
    ctx.status = 200;
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${escapeXml(bucket)}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
  };
}

/**
 * PUT /bucket/key?partNumber=…&uploadId=… with `x-amz-copy-source` (UploadPartCopy): the
 * part is the source object's bytes in `x-amz-copy-source-range` (all of them without
 * one), stored as an uploaded part is, so CompleteMultipartUpload assembles it.
 */
function uploadPartCopy(store: S3rverInstance['store']): KoaMiddleware {
  return async (ctx, next) => {
    const { uploadId, partNumber } = ctx.query as Record<string, unknown>;
    const source: unknown = ctx.headers['x-amz-copy-source'];
    if (ctx.method !== 'PUT' || typeof uploadId !== 'string' || typeof partNumber !== 'string' || typeof source !== 'string') return next();
    const bucket = decodeURIComponent(String(ctx.path).split('/')[1] ?? '');
    const [sourceBucket, ...sourceKey] = decodeURIComponent(source.replace(/^\//, '')).split('/');
    const uploadDir = path.join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
    if (!/^[0-9a-f]+$/.test(uploadId) || !(await stat(uploadDir).catch(() => undefined))) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body =
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>';
      return;
    }
    const range = /^bytes=(\d+)-(\d+)$/.exec(String(ctx.headers['x-amz-copy-source-range'] ?? ''));
    const object = await store.getObject(
      sourceBucket ?? '',
      sourceKey.join('/'),
      range ? { start: Number(range[1]), end: Number(range[2]) } : undefined,
    );
    if (!object?.content) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body =
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>';
      return;
    }
    const { md5 } = await store.putPart(bucket, uploadId, partNumber, object.content);
    ctx.status = 200;
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<CopyPartResult><LastModified>${new Date().toISOString()}</LastModified><ETag>"${md5}"</ETag></CopyPartResult>`;
  };
}

async function md5Of(filePath: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** s3rver computes `options.end || Infinity`, so a range ending at byte 0 became the whole object. */
function fixFirstByteRange(store: S3rverInstance['store']): void {
  const getObject = store.getObject.bind(store);
  store.getObject = async (bucket, key, options) => {
    const object = await getObject(bucket, key, options);
    if (options?.end !== 0 || !object?.content || !object.range) return object;
    object.content.destroy();
    object.content = createReadStream(store.getResourcePath(bucket, key, 'object'), { start: 0, end: 0 });
    object.range = { start: 0, end: 0 };
    return object;
  };
}
