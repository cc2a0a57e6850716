import { HeadBucketCommand, NoSuchKey, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { failFastWhileUnavailable, isStoreUnavailable } from './store-availability.ts';

const serviceError = (name: string, status: number) =>
  new S3ServiceException({ name, $fault: status >= 500 ? 'server' : 'client', $metadata: { httpStatusCode: status } });

describe('isStoreUnavailable', () => {
  it('takes timeouts, network errors, 5xx and throttling for the store being unavailable', () => {
    expect(isStoreUnavailable(Object.assign(new Error('socket idle'), { name: 'TimeoutError' }))).toBe(true);
    expect(isStoreUnavailable(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isStoreUnavailable(serviceError('ServiceUnavailable', 503))).toBe(true);
    expect(isStoreUnavailable(serviceError('InternalError', 500))).toBe(true);
    expect(isStoreUnavailable(serviceError('SlowDown', 503))).toBe(true);
    expect(isStoreUnavailable(serviceError('TooManyRequests', 429))).toBe(true);
  });

  it('leaves refusals of one request as they are: a missing key, a denied credential, a missing bucket', () => {
    expect(isStoreUnavailable(new NoSuchKey({ message: 'no such key', $metadata: { httpStatusCode: 404 } }))).toBe(false);
    expect(isStoreUnavailable(serviceError('AccessDenied', 403))).toBe(false);
    expect(isStoreUnavailable(serviceError('NoSuchBucket', 404))).toBe(false);
    expect(isStoreUnavailable(serviceError('XMinioStorageFull', 507))).toBe(false);
    expect(isStoreUnavailable(new Error('a bug'))).toBe(false);
  });
});

describe('failFastWhileUnavailable', () => {
  /** A client whose every request fails as `failure` says, counting the requests that reach the network. */
  function failingClient(failure: () => Error) {
    let sent = 0;
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9',
      forcePathStyle: true,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      maxAttempts: 1,
      requestHandler: {
        handle: async () => {
          sent += 1;
          throw failure();
        },
      },
    });
    return { client, sent: () => sent };
  }

  it('answers 503 STORAGE_UNAVAILABLE once the tries fail, then at once for 5 s, then asks the store again', async () => {
    let now = 1_000_000;
    const { client, sent } = failingClient(() => Object.assign(new Error('socket idle'), { name: 'TimeoutError' }));
    failFastWhileUnavailable(client, () => now);
    const ping = () => client.send(new HeadBucketCommand({ Bucket: 'b' }));

    const first = await ping().catch((error: unknown) => error);
    expect(first).toBeInstanceOf(AppError);
    expect(first).toMatchObject({
      status: 503,
      code: 'STORAGE_UNAVAILABLE',
      headers: { 'Retry-After': '5' },
      cause: { name: 'TimeoutError' },
    });
    expect(sent()).toBe(1);

    now += 4_999;
    await expect(ping()).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
    expect(sent()).toBe(1);

    now += 1;
    await expect(ping()).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
    expect(sent()).toBe(2);
  });

  it('answers a store that says it is full 507 INSUFFICIENT_STORAGE, and keeps asking it', async () => {
    const { client, sent } = failingClient(() => serviceError('XMinioStorageFull', 507));
    failFastWhileUnavailable(client, () => 0);
    for (let i = 0; i < 2; i += 1) {
      await expect(client.send(new HeadBucketCommand({ Bucket: 'b' }))).rejects.toMatchObject({
        status: 507,
        code: 'INSUFFICIENT_STORAGE',
      });
    }
    expect(sent()).toBe(2);
  });

  it('lets other failures through unchanged and keeps asking the store', async () => {
    const { client, sent } = failingClient(() => Object.assign(new Error('bad request'), { name: 'Bug' }));
    failFastWhileUnavailable(client, () => 0);
    for (let i = 0; i < 2; i += 1) await expect(client.send(new HeadBucketCommand({ Bucket: 'b' }))).rejects.toMatchObject({ name: 'Bug' });
    expect(sent()).toBe(2);
  });
});
