import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, newUserInput } from '@cloudvault/test-support/accounts';
import { rawUpload } from './helpers/raw-upload.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
let webDist: string;
const INDEX_HTML = '<!doctype html><title>CloudVault</title><div id="root"></div>';

beforeAll(async () => {
  webDist = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-web-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'index.html'), INDEX_HTML);
  await writeFile(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log("app")');
  // What the web build's precompress step writes beside each text file.
  await writeFile(path.join(webDist, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.log("app")'));
  await writeFile(path.join(webDist, 'assets', 'app-abc123.js.gz'), gzipSync('console.log("app")'));
  await writeFile(path.join(webDist, 'index.html.gz'), gzipSync(INDEX_HTML));
  await writeFile(path.join(webDist, 'robots.txt'), 'User-agent: *\nDisallow: /api/\n');
  // What vite-plugin-pwa writes: the service worker and the manifest (apps/web/vite.config.ts).
  await writeFile(path.join(webDist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  await writeFile(path.join(webDist, 'manifest.webmanifest'), '{"name":"CloudVault"}');
  server = await startTestServer({ env: { WEB_DIST_DIR: webDist } });
});
afterAll(async () => {
  await server.close();
  await rm(webDist, { recursive: true, force: true });
});

describe('bad input never reaches a 500', () => {
  it('answers malformed JSON with 400', async () => {
    const response = await server.request('POST', '/api/auth/login', {
      rawBody: '{"email": "a@b.c",',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'The request body is not valid JSON', code: expect.any(String) });
  });

  it('answers a JSON body over 1 MB with 413', async () => {
    const response = await server.request('POST', '/api/auth/register', {
      rawBody: JSON.stringify({ ...newUserInput(), padding: 'x'.repeat(1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(response.body.error).toMatch(/too large/);
  });

  it('answers an unsupported content type with 415', async () => {
    const response = await server.request('POST', '/api/auth/login', {
      rawBody: 'email=a@b.c&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
    expect(typeof response.body.error).toBe('string');
  });

  it('answers a JSON array or a bare string body with 400', async () => {
    for (const rawBody of ['[]', '"text"', 'null']) {
      const response = await server.request('POST', '/api/auth/login', {
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
    }
  });

  it('answers an unknown API route with a JSON 404', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['POST', '/api/auth/nope'],
      ['GET', '/api'],
    ] as const) {
      const response = await server.request(method, url);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect(typeof response.body.error).toBe('string');
    }
  });
});

describe('headers and the web app', () => {
  it('reports health', async () => {
    const response = await server.request('GET', '/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('sends security headers and no X-Powered-By', async () => {
    const response = await server.request('GET', '/api/health');
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves index.html with a strict CSP for client-side routes', async () => {
    for (const route of ['/', '/dashboard', '/some/deep/route?x=1', '/login']) {
      const response = await server.request('GET', route);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
      expect(response.text).toContain('<div id="root">');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves built assets with a long cache, and answers other methods on app routes with 404', async () => {
    const asset = await server.request('GET', '/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.text).toBe('console.log("app")');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await server.request('POST', '/dashboard')).status).toBe(404);
  });

  it('sends the precompressed build in the best encoding the browser accepts', async () => {
    const asset = (encoding: string) => fetch(`${server.url}/assets/app-abc123.js`, { headers: { 'accept-encoding': encoding } });
    const brotli = await asset('gzip, deflate, br');
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(await brotli.text()).toBe('console.log("app")');
    const gzip = await asset('gzip');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(await gzip.text()).toBe('console.log("app")');
    const identity = await asset('identity');
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(await identity.text()).toBe('console.log("app")');
    const page = await fetch(`${server.url}/dashboard`, { headers: { 'accept-encoding': 'gzip' } });
    expect(page.headers.get('content-encoding')).toBe('gzip');
    expect(await page.text()).toBe(INDEX_HTML);
  });

  it('serves the service worker and the manifest, always revalidated, and lets the CSP allow both', async () => {
    const worker = await server.request('GET', '/sw.js');
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    // A cached service worker would keep an old version of the app for as long as the cache lasts.
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    const manifest = await server.request('GET', '/manifest.webmanifest');
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    const csp = (await server.request('GET', '/dashboard')).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });

  describe('POST /share-target no service worker caught (the web app share target)', () => {
    it("sends the share sheet's form to /share with a 303, storing nothing", async () => {
      const form = new FormData();
      form.append('title', 'Holiday');
      form.append('files', new Blob(['one']), 'one.txt');
      form.append('files', new Blob(['two']), 'two.txt');
      const response = await fetch(`${server.url}/share-target`, { method: 'POST', body: form, redirect: 'manual' });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/share');
      // Any other body as well: a share target is posted to by browsers, not by the API's clients.
      const plain = await fetch(`${server.url}/share-target`, { method: 'POST', body: 'text', redirect: 'manual' });
      expect(plain.status).toBe(303);
      expect(await server.blobCount()).toBe(0);
    });

    it('answers a large body before it has arrived, then drops the rest, never buffering it', async () => {
      const port = Number(new URL(server.url).port);
      // A client that sends 24 MiB before reading anything reads the 303 (a lingering close, not a reset)...
      const sent = await rawUpload({ port, path: '/share-target', fileBytes: 24 * 1024 * 1024 });
      expect(sent.final?.status).toBe(303);
      expect(sent.final?.headers.location).toBe('/share');
      // ...which left before the body had come: the server closes the connection after an early answer.
      expect(sent.final?.headers.connection).toBe('close');
      // A client that asks first (Expect: 100-continue) is answered without sending a byte of it.
      const asked = await rawUpload({ port, path: '/share-target', fileBytes: 24 * 1024 * 1024, expectContinue: true });
      expect(asked.responses.map((response) => response.status)).toEqual([303]);
      expect(asked.bodyBytesSent).toBe(0);
      expect(await server.blobCount()).toBe(0);
      expect((await server.request('GET', '/api/health')).status).toBe(200);
    });
  });

  it('answers /robots.txt with the file, not the app', async () => {
    const response = await server.request('GET', '/robots.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(response.text).toContain('Disallow: /api/');
  });

  it('publishes the OpenAPI document', async () => {
    const response = await server.request('GET', '/api/docs/json');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.paths)).toEqual(
      expect.arrayContaining(['/api/auth/register', '/api/auth/login', '/api/auth/profile', '/api/auth/logout']),
    );
  });
});

describe('rate limits per IP', () => {
  it('allows 100 failed sign-ins per IP in 15 minutes, whatever the e-mail', async () => {
    const fresh = await startTestServer();
    try {
      const { email, password } = await createUser(fresh);
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const response = await fresh.request('POST', '/api/auth/login', {
          body: { email: `nobody${attempt}@example.com`, password: 'wrong-one' },
        });
        expect(response.status).toBe(401);
      }
      const limited = await fresh.request('POST', '/api/auth/login', { body: { email, password } });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBeTruthy();
    } finally {
      await fresh.close();
    }
  });

  it('allows 50 registrations per IP per hour', async () => {
    const fresh = await startTestServer();
    try {
      for (let attempt = 0; attempt < 50; attempt += 1) {
        // Invalid on purpose: attempts count, not only successes, and they stay cheap.
        const response = await fresh.request('POST', '/api/auth/register', { body: newUserInput({ email: 'bad' }) });
        expect(response.status).toBe(400);
      }
      const limited = await fresh.request('POST', '/api/auth/register', { body: newUserInput() });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.body.error).toMatch(/Too many attempts/);
    } finally {
      await fresh.close();
    }
  });
});
