import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { startSlowUpload } from './helpers/slow-upload.ts';
import { uploadFile } from '@cloudvault/test-support/drive';

const TOKEN = 'metrics-token-for-the-scraper';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { METRICS_TOKEN: TOKEN } });
});
afterAll(() => server.close());

async function scrape(): Promise<string> {
  const response = await server.request('GET', '/metrics', { token: TOKEN });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text;
}

/** The value of one series in Prometheus text, 0 when it is not there yet. */
function valueOf(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('answers only the METRICS_TOKEN: 401 without it or with another, and 404 when no token is configured', async () => {
    const without = await server.request('GET', '/metrics');
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toBe('Bearer');
    expect(without.body).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await server.request('GET', '/metrics', { token: `${TOKEN}x` })).status).toBe(401);
    expect((await server.request('GET', '/metrics', { headers: { authorization: TOKEN } })).status).toBe(401);

    const unconfigured = await startTestServer();
    try {
      const response = await unconfigured.request('GET', '/metrics', { token: TOKEN });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await unconfigured.close();
    }
  });

  it('counts requests by route pattern and status, with their latency, the bytes they moved and the uploads in flight', async () => {
    const { token } = await createUser(server);
    const before = await scrape();
    const content = randomBytes(300 * 1024);
    const uploaded = await uploadFile(server, token, content, { name: 'counted.bin' });
    expect(uploaded.status).toBe(201);
    const fileId = uploaded.body.file.id as string;
    expect((await server.request('GET', `/api/files/${fileId}/download`, { token })).status).toBe(200);
    expect((await server.request('GET', `/api/files/${randomBytes(16).toString('base64url')}/download`, { token })).status).toBe(404);
    await server.request('GET', '/api/health');
    await server.request('GET', '/api/health');
    const after = await scrape();

    const moved = (series: string) => valueOf(after, series) - valueOf(before, series);
    expect(moved('cloudvault_http_requests_total{method="GET",route="/api/health",status="200"}')).toBe(2);
    expect(moved('cloudvault_http_requests_total{method="POST",route="/api/files/upload",status="201"}')).toBe(1);
    expect(moved('cloudvault_http_requests_total{method="GET",route="/api/files/:id/download",status="200"}')).toBe(1);
    expect(moved('cloudvault_http_requests_total{method="GET",route="/api/files/:id/download",status="404"}')).toBe(1);
    expect(moved('cloudvault_http_request_duration_seconds_count{method="GET",route="/api/health"}')).toBe(2);
    expect(moved('cloudvault_http_received_bytes_total{route="/api/files/upload"}')).toBeGreaterThanOrEqual(content.length);
    expect(moved('cloudvault_http_sent_bytes_total{route="/api/files/:id/download"}')).toBeGreaterThanOrEqual(content.length);
    expect(valueOf(after, 'cloudvault_uploads_in_flight')).toBe(0);
    const slow = startSlowUpload(server.url, token, randomBytes(64 * 1024));
    while (valueOf(await scrape(), 'cloudvault_uploads_in_flight') !== 1) await new Promise((resolve) => setTimeout(resolve, 20));
    slow.finish();
    expect((await slow.answer).status).toBe(201);
    expect(valueOf(await scrape(), 'cloudvault_uploads_in_flight')).toBe(0);
    // A change-feed wait is held while it waits, and given back when it is answered.
    const cursor = (await server.request('GET', '/api/changes/latest', { token })).body.cursor as string;
    const waiting = server.request('GET', `/api/changes?cursor=${cursor}&wait=30`, { token });
    while (valueOf(await scrape(), 'cloudvault_change_listeners') !== 1) await new Promise((resolve) => setTimeout(resolve, 20));
    await server.request('POST', '/api/user/folders', { token, body: { name: 'Wakes the wait', parentId: null } });
    expect((await waiting).body.changes).toHaveLength(1);
    expect(valueOf(await scrape(), 'cloudvault_change_listeners')).toBe(0);
    // Route patterns only: an id in a URL would make a series of its own.
    expect(after).not.toContain(fileId);
    expect(after).toContain('process_cpu_user_seconds_total');
  });

  it('shows the PostgreSQL pool (connections in total, idle, queries waiting), and no pool with SQLite', async () => {
    const text = await scrape();
    if (server.container.database.dialect === 'postgres') {
      expect(valueOf(text, 'cloudvault_db_pool_connections{state="total"}')).toBeGreaterThan(0);
      expect(text).toContain('cloudvault_db_pool_connections{state="idle"}');
      expect(text).toContain('cloudvault_db_pool_connections{state="waiting"}');
    } else {
      expect(text).not.toContain('cloudvault_db_pool_connections');
    }
  });

  it('takes metrics the rest of the server registers, such as a job runner’s queue depth and failures', async () => {
    const failed = server.container.metrics.counter({
      name: 'cloudvault_test_jobs_failed_total',
      help: 'Jobs that failed',
      labelNames: ['queue'],
    });
    let depth = 3;
    server.container.metrics.gauge({
      name: 'cloudvault_test_jobs_queued',
      help: 'Jobs waiting',
      labelNames: ['queue'],
      collect: () => [{ labels: { queue: 'mail' }, value: depth }],
    });
    failed.inc({ queue: 'mail' });
    expect(valueOf(await scrape(), 'cloudvault_test_jobs_failed_total{queue="mail"}')).toBe(1);
    depth = 5;
    expect(valueOf(await scrape(), 'cloudvault_test_jobs_queued{queue="mail"}')).toBe(5);
  });

  it('shows each background job waiting, running and failed, once the node runs them', async () => {
    // Test servers do not run their jobs unless asked; pg-boss has queues to count only when started.
    await server.container.jobs.start();
    const text = await scrape();
    for (const job of ['trash-and-version-retention', 'daily-storage-figures', 'subscription-renewals', 'mail-delivery']) {
      for (const state of ['queued', 'active', 'failed'])
        expect(text).toMatch(new RegExp(`^cloudvault_jobs\\{job="${job}",state="${state}"\\} \\d+$`, 'm'));
    }
  });
});
