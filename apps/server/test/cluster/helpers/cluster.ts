import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type ApiAnswer, request } from '@cloudvault/test-support/running-server';
import { freePort } from '../../helpers/free-port.ts';
import { type Balancer, startHaproxy } from '../../helpers/haproxy.ts';
import { s3StorageEnv, startS3rver } from '../../helpers/s3rver.ts';
import { startSmtpSink } from '../../helpers/smtp-sink.ts';
import { createPostgresDatabase } from '../../helpers/test-database.ts';
import { claimRedisDatabase } from '../../helpers/test-redis.ts';
import { type BucketView, viewBucket } from './bucket.ts';
import { type ClusterNode, createClusterNode } from './node-process.ts';

/**
 * How soon a dead node's upload reservation may be taken back by the reconciler
 * (docs/decisions/0021-crash-safe-storage.md): short, so the crash scenario does not wait
 * a production lease out.
 */
const UPLOAD_LEASE_SECONDS = '5';

/**
 * Two CloudVault nodes on one PostgreSQL database, one S3 bucket (s3rver), one Redis database
 * and one SMTP server, behind haproxy: every request of a scenario goes to `url`, the balancer.
 */
export interface Cluster {
  url: string;
  nodes: [ClusterNode, ClusterNode];
  balancer: Balancer;
  /** The nodes' database, for what no route shows (row counts, moving a due date). */
  db: pg.Pool;
  bucket: BucketView;
  /** Where the bucket's S3 server listens: presigned URLs point there. */
  s3Endpoint: string;
  /** One JSON request through the balancer. */
  request<T = any>(method: string, path: string, options?: { token?: string; body?: unknown }): Promise<ApiAnswer<T>>;
  /** Starts a stopped or killed node and waits until haproxy sends it requests again. */
  startNode(node: ClusterNode): Promise<void>;
  stop(): Promise<void>;
}

/** How many `method path` requests a node has logged (its log level is info). */
export function requestsLogged(node: ClusterNode, method: string, path: string): number {
  const line = `"req":{"method":"${method}","url":"${path}"`;
  return node.output().split(line).length - 1;
}

export async function startCluster(): Promise<Cluster> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('The cluster suite needs TEST_DATABASE_URL (a PostgreSQL server where it may create a database)');
  const cleanups: Array<() => Promise<unknown>> = [];
  const stopAll = async () => {
    const errors: unknown[] = [];
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => errors.push(error));
    cleanups.length = 0;
    if (errors.length > 0) throw new AggregateError(errors, 'stopping the cluster failed');
  };
  try {
    const database = await createPostgresDatabase(adminUrl);
    cleanups.push(() => database.drop());
    const db = new pg.Pool({ connectionString: database.url, max: 4 });
    // pg's Pool.end() resolves before its sockets close, so the FORCE drop that follows it can
    // end one of them first: that termination (57P01) is the teardown's own, anything else is not.
    let dropping = false;
    db.on('error', (error: Error & { code?: string }) => {
      if (!dropping || error.code !== '57P01') throw error;
    });
    cleanups.push(async () => {
      await db.end();
      dropping = true;
    });
    const s3 = await startS3rver();
    cleanups.push(() => s3.stop());
    const bucket = viewBucket(s3.endpoint, s3.bucket);
    cleanups.push(async () => bucket.close());
    const mail = await startSmtpSink();
    cleanups.push(() => mail.close());
    const redis = await claimRedisDatabase();
    cleanups.push(() => redis.release());

    const proxyPort = await freePort();
    const url = `http://127.0.0.1:${proxyPort}`;
    const env = {
      DATABASE_URL: database.url,
      ...s3StorageEnv(s3),
      REDIS_URL: redis.url,
      SMTP_URL: mail.url,
      PAYMENTS_PROVIDER: 'local',
      JWT_SECRET: randomBytes(32).toString('hex'),
      PUBLIC_URL: url,
      // haproxy connects from 127.0.0.1 and names the client in X-Forwarded-For.
      TRUST_PROXY: 'loopback',
      // Request lines in the log tell which node served what.
      LOG_LEVEL: 'info',
      UPLOAD_LEASE_SECONDS,
    };
    const nodes: [ClusterNode, ClusterNode] = [
      await createClusterNode('node1', await freePort(), env),
      await createClusterNode('node2', await freePort(), env),
    ];
    for (const node of nodes) cleanups.push(() => node.dispose());
    const balancer = await startHaproxy({
      port: proxyPort,
      backends: nodes.map((node) => ({ name: node.name, port: Number(new URL(node.url).port) })),
      healthChecks: true,
    });
    cleanups.push(() => balancer.stop());

    const startNode = async (node: ClusterNode) => {
      await node.start();
      await balancer.waitForServer(node.name, 'UP');
    };
    // Together, as a deployment starts them: the migrations must cope with two at once.
    await Promise.all(nodes.map(startNode));

    return {
      url,
      nodes,
      balancer,
      db,
      bucket,
      s3Endpoint: s3.endpoint,
      request: (method, path, options) => request<any>({ url }, method, path, options),
      startNode,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll().catch(() => {});
    throw error;
  }
}
