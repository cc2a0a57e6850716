import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import http from 'node:http';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { ApiAnswer } from '@cloudvault/test-support/running-server';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { type Container, createContainer } from '../../src/container.ts';
import { createTestClock, type TestClock } from './test-clock.ts';
import { createTestDatabase } from './test-database.ts';
import { deleteRedisKeys, testRedisUrl } from './test-redis.ts';
import { S3_CREDENTIALS, s3StorageEnv, startS3rver, type TestS3Server } from './s3rver.ts';

/** With TEST_STORAGE=s3 (or a test that needs S3) each test server stores its blobs in its own s3rver. */
async function startTestStorage(storage: 's3' | undefined): Promise<{ env: Record<string, string>; s3?: TestS3Server }> {
  if (process.env.TEST_STORAGE !== 's3' && storage !== 's3') return { env: {} };
  const s3 = await startS3rver();
  // Downloads stream through the server, so the S3 phase tests that path; a test of the
  // redirects to the store turns them on (presigned-downloads.test.ts).
  return { s3, env: { ...s3StorageEnv(s3), S3_PRESIGNED_DOWNLOADS: 'false' } };
}

export type ApiResponse<T = any> = ApiAnswer<T>;

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, for malformed or oversized bodies. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /**
   * The client's source address: any 127.x.y.z reaches the server on 127.0.0.1 from
   * another address, so per-address limits are seen without a proxy.
   */
  from?: string;
}

/** A real server on a random port with its own DATA_DIR and database. */
export interface TestServer {
  url: string;
  clock: TestClock;
  container: Container;
  app: FastifyInstance;
  dataDir: string;
  /** The environment the server's configuration was read from: another node as its own process starts with it. */
  env: Record<string, string>;
  /** How many blobs the store holds, local disk or S3, seen from outside the server. */
  blobCount(): Promise<number>;
  /** Sets when a stored blob was written, as the store reports it: an old blob without waiting. */
  setBlobTime(key: string, time: Date): Promise<void>;
  /** Uploads started and never finished: S3 multipart uploads, or local temp files. */
  unfinishedUploads(): Promise<string[]>;
  /** Sets when every unfinished upload started. */
  setUnfinishedUploadsTime(time: Date): Promise<void>;
  /** The name of everything the store holds, finished or not: object keys and pending multipart uploads' keys, or file names. */
  storedNames(): Promise<string[]>;
  /** Everything the server logged, as text. */
  logs(): string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /**
   * Another node of the same deployment, as behind a balancer: the same database,
   * DATA_DIR, clock and limit store, its own process state. Close it before this one.
   * `ownDataDir` gives it a disk of its own, as separate machines have (PostgreSQL only:
   * SQLite lives in DATA_DIR).
   */
  startNode(options?: { ownDataDir?: boolean }): Promise<TestServer>;
  close(): Promise<void>;
}

/** One request over node:http from a chosen source address (fetch cannot pick one), answered as a Response. */
function requestFrom(localAddress: string, url: string, init: RequestInit): Promise<Response> {
  return new Promise((resolve, reject) => {
    const body = init.body as string | Buffer | undefined;
    // Node frames a DELETE's body only with a length (it sends no chunked DELETE).
    const headers = {
      ...(init.headers as Record<string, string>),
      ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
    };
    const request = http.request(url, { method: init.method, headers, localAddress }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
        }
        const noBody = incoming.statusCode === 204 || incoming.statusCode === 304;
        resolve(new Response(noBody ? null : Buffer.concat(chunks), { status: incoming.statusCode ?? 0, headers }));
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

export interface TestServerOptions {
  env?: Record<string, string>;
  /** Limits in the Redis at TEST_REDIS_URL (the default with TEST_LIMITS=redis); false keeps them in the database. */
  redis?: boolean;
  /** Blobs in an s3rver whatever TEST_STORAGE says, for tests of what only S3 does. */
  storage?: 's3';
  /** Where the test clock starts; a fixed date unless given (the real time, when something outside checks it). */
  clockStart?: Date;
  /** A clock that follows the system's, as another process's does (a second node as its own process). */
  realTimeClock?: boolean;
}

/**
 * A real server on a random port. With `redis` (by default TEST_LIMITS=redis) its limits
 * live in the Redis at TEST_REDIS_URL, under a key prefix of its own; `redis: false` keeps
 * them in the database whatever the run. With `realTimeClock`, its clock follows the
 * system's, as another process's does.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-test-'));
  const database = await createTestDatabase({ migratedInto: dataDir });
  const storage = await startTestStorage(options.storage);
  const redisUrl = (options.redis ?? process.env.TEST_LIMITS === 'redis') ? testRedisUrl() : undefined;
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    // Test servers keep blobs on local disk and mail in the outbox with PostgreSQL too: each runs alone.
    SINGLE_NODE: '1',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...storage.env,
    // CLOUDVAULT_NATIVE=0 runs every test server on the portable paths (npm test's portable phase).
    ...(process.env.CLOUDVAULT_NATIVE ? { CLOUDVAULT_NATIVE: process.env.CLOUDVAULT_NATIVE } : {}),
    ...options.env,
  };
  const node = await startNode(env, {
    clock: createTestClock(options.realTimeClock ? 'real-time' : options.clockStart),
    limitKeyPrefix: `cloudvault-test:${randomUUID()}:`,
  });
  const tempDir = path.join(dataDir, 'blobs', '.tmp');
  return {
    ...node,
    async blobCount() {
      if (storage.s3) {
        const client = new S3Client({
          region: 'us-east-1',
          endpoint: storage.s3.endpoint,
          forcePathStyle: true,
          credentials: S3_CREDENTIALS,
        });
        const listed = await client.send(new ListObjectsV2Command({ Bucket: storage.s3.bucket }));
        client.destroy();
        return listed.KeyCount ?? 0;
      }
      const entries = await readdir(path.join(dataDir, 'blobs'), { recursive: true, withFileTypes: true }).catch(() => []);
      return entries.filter((entry) => entry.isFile() && !entry.parentPath.includes('.tmp')).length;
    },
    async setBlobTime(key, time) {
      if (storage.s3) await storage.s3.setObjectTime(`blobs/${key}`, time);
      else await utimes(path.join(dataDir, 'blobs', key.slice(0, 2), key.slice(2, 4), key), time, time);
    },
    async unfinishedUploads() {
      return storage.s3 ? storage.s3.pendingMultipartUploads() : readdir(tempDir).catch(() => []);
    },
    async storedNames() {
      if (storage.s3) {
        const client = new S3Client({
          region: 'us-east-1',
          endpoint: storage.s3.endpoint,
          forcePathStyle: true,
          credentials: S3_CREDENTIALS,
        });
        const listed = await client.send(new ListObjectsV2Command({ Bucket: storage.s3.bucket }));
        client.destroy();
        return [...(listed.Contents ?? []).map((object) => object.Key as string), ...(await storage.s3.pendingMultipartUploadKeys())];
      }
      const entries = await readdir(path.join(dataDir, 'blobs'), { recursive: true, withFileTypes: true }).catch(() => []);
      return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
    },
    async setUnfinishedUploadsTime(time) {
      if (storage.s3) return storage.s3.setMultipartUploadsTime(time);
      for (const name of await readdir(tempDir).catch(() => [])) await utimes(path.join(tempDir, name), time, time);
    },
    async close() {
      await node.close();
      await database.drop();
      await storage.s3?.stop();
      if (redisUrl) await deleteRedisKeys(redisUrl, node.limitKeyPrefix);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One server process's parts (app, container) over a deployment's shared state. */
async function startNode(
  env: Record<string, string>,
  shared: { clock: TestClock; limitKeyPrefix: string },
): Promise<TestServer & { limitKeyPrefix: string }> {
  const config = loadConfig(env);
  const { clock, limitKeyPrefix } = shared;
  const dataDir = config.dataDir;
  const container = await createContainer(config, { clock, limitKeyPrefix });
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
    limitKeyPrefix,
    env,
    logs: () => logText,
    blobCount: () => Promise.reject(new Error('blobCount is asked of the server that startTestServer returned')),
    setBlobTime: () => Promise.reject(new Error('setBlobTime is asked of the server that startTestServer returned')),
    unfinishedUploads: () => Promise.reject(new Error('unfinishedUploads is asked of the server that startTestServer returned')),
    setUnfinishedUploadsTime: () =>
      Promise.reject(new Error('setUnfinishedUploadsTime is asked of the server that startTestServer returned')),
    storedNames: () => Promise.reject(new Error('storedNames is asked of the server that startTestServer returned')),
    async startNode({ ownDataDir = false } = {}) {
      if (!ownDataDir) return startNode(env, shared);
      if (!config.databaseUrl) throw new Error('a node with a disk of its own needs PostgreSQL: SQLite lives in DATA_DIR');
      const ownDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-test-'));
      const node = await startNode({ ...env, DATA_DIR: ownDir }, shared);
      return {
        ...node,
        close: async () => {
          await node.close();
          await rm(ownDir, { recursive: true, force: true });
        },
      };
    },
    async request(method, urlPath, { token, body, rawBody, headers = {}, from } = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      const requestHeaders = init.headers as Record<string, string>;
      if (token) requestHeaders.authorization = `Bearer ${token}`;
      if (body !== undefined) {
        requestHeaders['content-type'] ??= 'application/json';
        init.body = JSON.stringify(body);
      } else if (rawBody !== undefined) {
        init.body = rawBody;
      }
      const response =
        from === undefined ? await fetch(`${address}${urlPath}`, init) : await requestFrom(from, `${address}${urlPath}`, init);
      const text = await response.text();
      let parsed: unknown = text;
      if (response.headers.get('content-type')?.includes('application/json') && text) parsed = JSON.parse(text);
      return { status: response.status, headers: response.headers, body: parsed as any, text };
    },
    async close() {
      await app.close();
      await container.close();
    },
  };
}
