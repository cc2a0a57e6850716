import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { type Container, createContainer } from '../../src/container.ts';
import { type ApiResponse, type RequestOptions, requestApi } from './api-request.ts';
import { createTestClock, type TestClock } from './test-clock.ts';
import { createTestDatabase } from './test-database.ts';
import { startS3rver, type TestS3Server } from './s3rver.ts';

const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** With TEST_STORAGE=s3 each test server stores its blobs in its own s3rver. */
async function startTestStorage(): Promise<{ env: Record<string, string>; s3?: TestS3Server }> {
  if (process.env.TEST_STORAGE !== 's3') return { env: {} };
  const s3 = await startS3rver();
  return {
    s3,
    env: {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
  };
}

/** A real server on a random port with its own DATA_DIR and database. */
export interface TestServer {
  url: string;
  clock: TestClock;
  container: Container;
  app: FastifyInstance;
  dataDir: string;
  /** How many blobs the store holds, local disk or S3, seen from outside the server. */
  blobCount(): Promise<number>;
  /** Everything the server logged, as text. */
  logs(): string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export async function startTestServer(options: { env?: Record<string, string> } = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-test-'));
  const database = await createTestDatabase();
  const storage = await startTestStorage();
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...storage.env,
    // CLOUDVAULT_NATIVE=0 runs every test server on the portable paths (npm test's portable phase).
    ...(process.env.CLOUDVAULT_NATIVE ? { CLOUDVAULT_NATIVE: process.env.CLOUDVAULT_NATIVE } : {}),
    ...options.env,
  });
  const clock = createTestClock();
  const container = await createContainer(config, { clock });
  let logText = '';
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => {
    logText += chunk.toString();
  });
  const app = await buildApp(container, { logStream });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });

  return {
    url: address,
    clock,
    container,
    app,
    dataDir,
    logs: () => logText,
    async blobCount() {
      if (storage.s3) {
        const client = new S3Client({ region: 'us-east-1', endpoint: storage.s3.endpoint, forcePathStyle: true, credentials: S3_CREDENTIALS });
        const listed = await client.send(new ListObjectsV2Command({ Bucket: storage.s3.bucket }));
        client.destroy();
        return listed.KeyCount ?? 0;
      }
      const entries = await readdir(path.join(dataDir, 'blobs'), { recursive: true, withFileTypes: true }).catch(() => []);
      return entries.filter((entry) => entry.isFile() && !entry.parentPath.includes('.tmp')).length;
    },
    request: (method, urlPath, options) => requestApi(address, method, urlPath, options),
    async close() {
      await app.close();
      await container.close();
      await database.drop();
      await storage.s3?.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
