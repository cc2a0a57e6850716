/**
 * Transfers against a real server: byte for byte both ways for empty, small and large files;
 * small files many to a request; a file whose bytes do not match its hash refused alone;
 * large uploads and downloads resumed after a cut connection or a killed run without sending
 * again what had arrived.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCuttingProxy } from '../../server/test/helpers/cutting-proxy.ts';
import { s3StorageEnv, startS3rver } from '../../server/test/helpers/s3rver.ts';
import { createApiClient, type ApiClient, type ApiRequest } from '../src/remote/api-client.ts';
import { downloadFiles, uploadFiles, type DownloadFile, type UploadFile } from '../src/remote/transfers.ts';
import * as remote from './remote-helpers.ts';

const MB = 1024 * 1024;
const LARGE = 50 * MB;
/** Just under the Free plan's per-file limit (100 MB): large enough that a body held whole shows. */
const HUGE = 96 * MB;

let server: remote.ServerProcess;
let dir: string;
let large: { path: string; hash: string };

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A file of random bytes written in 1 MiB pieces, never whole in memory. */
async function randomFile(name: string, size: number): Promise<{ path: string; hash: string }> {
  const file = path.join(dir, name);
  const out = createWriteStream(file);
  for (let left = size; left > 0; left -= MB) {
    if (!out.write(randomBytes(Math.min(MB, left)))) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { path: file, hash: await sha256File(file) };
}

/** The large file's first `size` bytes. */
async function readPrefix(size: number): Promise<Buffer> {
  const prefix = Buffer.alloc(size);
  const handle = await open(large.path, 'r');
  await handle.read(prefix, 0, size, 0);
  await handle.close();
  return prefix;
}

async function smallFile(name: string, content: string | Buffer): Promise<UploadFile> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  const bytes = await readFile(file);
  return {
    localPath: file,
    folderId: null,
    name,
    conflict: 'fail',
    size: bytes.length,
    hash: createHash('sha256').update(bytes).digest('hex'),
  };
}

/** An API client that notes the path of every request. */
function noting(inner: ApiClient) {
  const paths: string[] = [];
  const client: ApiClient = {
    server: inner.server,
    device: inner.device,
    request: (request: ApiRequest) => {
      paths.push(`${request.method ?? 'GET'} ${request.path}`);
      return inner.request(request);
    },
    json: async <T>(request: ApiRequest) => (await client.request(request)).json() as Promise<T>,
  };
  return { client, paths };
}

/**
 * A TCP proxy that cuts each connection once the SERVER has sent between `minBytes` and
 * `maxBytes` to the client: a download dropped mid-way. Counts the bytes it passed on.
 */
async function startDownloadCutter(target: string, minBytes: number, maxBytes: number) {
  const { port } = new URL(target);
  let cuts = 0;
  let passed = 0;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(port), '127.0.0.1');
    sockets.add(client).add(upstream);
    const limit = minBytes + Math.floor(Math.random() * (maxBytes - minBytes));
    let sent = 0;
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      if (sent > limit) {
        const part = chunk.subarray(0, chunk.length - (sent - limit));
        passed += part.length;
        client.write(part);
        cuts += 1;
        return cut();
      }
      passed += chunk.length;
      if (!client.write(chunk)) upstream.pause();
    });
    client.on('drain', () => upstream.resume());
    client.on('error', cut);
    upstream.on('error', cut);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`,
    cuts: () => cuts,
    passed: () => passed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  server = await remote.startServer();
  dir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-transfers-'));
  large = await randomFile('large.bin', LARGE);
});
afterAll(async () => {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const largeItem = (name: string): UploadFile => ({
  localPath: large.path,
  folderId: null,
  name,
  conflict: 'fail',
  size: LARGE,
  hash: large.hash,
});

describe('transfers', () => {
  it('carries empty, small and large files both ways byte for byte, small ones many to a request', async () => {
    const user = await remote.signedInUser(server);
    const noted = noting(user.api);
    const items = [
      await smallFile('empty.txt', ''),
      await smallFile('héllo wörld.txt', 'hello'),
      ...(await Promise.all(Array.from({ length: 30 }, (_, index) => smallFile(`small-${index}.bin`, randomBytes(1000 + index * 3000))))),
      largeItem('large.bin'),
    ];
    const finished: number[] = [];
    let sent = 0;
    const outcomes = await uploadFiles(noted.client, items, {
      onDone: (index) => finished.push(index),
      onProgress: (bytes) => (sent += bytes),
    });
    for (const [index, outcome] of outcomes.entries()) {
      expect(
        outcome,
        `${items[index]?.name}: ${JSON.stringify(outcome)} ${'error' in outcome ? outcome.error.message : ''}`,
      ).toHaveProperty('file');
    }
    expect(finished.sort((a, b) => a - b)).toEqual(items.map((_, index) => index));
    expect(sent).toBe(items.reduce((sum, item) => sum + item.size, 0));
    // 32 small files in one request; the large one through tus (a creation and its PATCH).
    expect(noted.paths.filter((entry) => entry === 'POST /api/sync/uploads')).toHaveLength(1);
    expect(noted.paths.filter((entry) => entry.startsWith('PATCH /api/uploads/'))).toHaveLength(1);

    const downloads: DownloadFile[] = outcomes.map((outcome, index) => ({
      remoteId: 'file' in outcome ? outcome.file.id : '',
      size: items[index]?.size ?? 0,
      hash: items[index]?.hash ?? '',
      tmpPath: path.join(dir, 'down', `${index}.tmp`),
    }));
    const back = await downloadFiles(noted.client, downloads);
    expect(back.every((outcome) => 'ok' in outcome)).toBe(true);
    for (const [index, item] of items.entries()) expect(await sha256File(downloads[index]?.tmpPath as string), item.name).toBe(item.hash);
    expect(noted.paths.filter((entry) => entry === 'POST /api/sync/downloads')).toHaveLength(1);
  });

  it('refuses alone a file whose bytes are not the ones hashed, and keeps nothing of it', async () => {
    const user = await remote.signedInUser(server);
    const good = await smallFile('good.txt', 'good');
    const changed = { ...(await smallFile('changed.txt', 'before')), hash: createHash('sha256').update('other').digest('hex') };
    const [goodOutcome, changedOutcome] = await uploadFiles(user.api, [good, changed]);
    expect(goodOutcome).toHaveProperty('file');
    expect(changedOutcome).toMatchObject({ error: { code: 'HASH_MISMATCH' } });
    const listed = await remote.call<{ files: { originalName: string }[] }>(server, user.token, 'GET', '/api/files');
    expect(listed.files.map((file) => file.originalName)).toEqual(['good.txt']);
  });

  it('resumes a large upload cut several times, each time from where the server says it stopped', async () => {
    const user = await remote.signedInUser(server);
    const proxy = await startCuttingProxy(server.url, { minBytes: 8 * MB, maxBytes: 16 * MB });
    try {
      const api = createApiClient({ server: proxy.origin, email: user.email, appPassword: user.appPassword, device: 'test-laptop' });
      const offsets: number[] = [];
      const watched: ApiClient = {
        ...api,
        request: (request) => {
          if (request.method === 'PATCH') offsets.push(Number(request.headers?.['upload-offset']));
          return api.request(request);
        },
      };
      const [outcome] = await uploadFiles(watched, [largeItem('cut.bin')]);
      expect(outcome).toHaveProperty('file');
      expect(proxy.cuts()).toBeGreaterThan(0);
      // One PATCH per cut and one that finished, each from further on: what arrived is never sent again.
      expect(offsets).toHaveLength(proxy.cuts() + 1);
      expect(offsets[0]).toBe(0);
      for (let index = 1; index < offsets.length; index += 1) expect(offsets[index]).toBeGreaterThan(offsets[index - 1] as number);
      const id = (outcome as { file: { id: string } }).file.id;
      const tmpPath = path.join(dir, 'cut-back.tmp');
      const [back] = await downloadFiles(user.api, [{ remoteId: id, size: LARGE, hash: large.hash, tmpPath }]);
      expect(back).toEqual({ ok: true });
    } finally {
      await proxy.close();
    }
  });

  it('sends and fetches a 96 MiB file without holding it: the process grows by far less than the file', async () => {
    const user = await remote.signedInUser(server);
    const huge = await randomFile('huge.bin', HUGE);
    try {
      // Sampled at each chunk: a body held whole would show as ~256 MB more RSS by the last one.
      const start = process.memoryUsage.rss();
      let peak = start;
      const sample = () => (peak = Math.max(peak, process.memoryUsage.rss()));
      const [outcome] = await uploadFiles(
        user.api,
        [{ localPath: huge.path, folderId: null, name: 'huge.bin', conflict: 'fail', size: HUGE, hash: huge.hash }],
        { onProgress: sample },
      );
      expect(outcome).toHaveProperty('file');
      const id = (outcome as { file: { id: string } }).file.id;
      const [back] = await downloadFiles(
        user.api,
        [{ remoteId: id, size: HUGE, hash: huge.hash, tmpPath: path.join(dir, 'huge-back.tmp') }],
        {
          onProgress: sample,
        },
      );
      expect(back).toEqual({ ok: true });
      expect(peak - start).toBeLessThan(HUGE / 2);
    } finally {
      await rm(huge.path, { force: true });
      await rm(path.join(dir, 'huge-back.tmp'), { force: true });
    }
  });

  it('resumes an upload a killed run began, from where the server says it stopped', async () => {
    const user = await remote.signedInUser(server);
    // The killed run: it made the upload, kept its URL and sent 20 MB before it died.
    const tus = { authorization: `Bearer ${user.token}`, 'tus-resumable': '1.0.0' };
    const made = await fetch(`${server.url}/api/uploads`, {
      method: 'POST',
      headers: { ...tus, 'upload-length': String(LARGE), 'upload-metadata': `filename ${Buffer.from('resumed.bin').toString('base64')}` },
    });
    expect(made.status).toBe(201);
    const url = new URL(made.headers.get('location') as string, server.url).pathname;
    const patched = await fetch(`${server.url}${url}`, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: await readPrefix(20 * MB),
    });
    expect(patched.status).toBe(204);

    let sent = 0;
    const [outcome] = await uploadFiles(user.api, [{ ...largeItem('resumed.bin'), resumeUrl: url }], {
      onProgress: (bytes) => (sent += bytes),
      onUploadUrl: () => expect.unreachable('the upload begun before is resumed, not begun again'),
    });
    expect(outcome).toHaveProperty('file');
    expect(sent).toBe(LARGE - 20 * MB);
    const id = (outcome as { file: { id: string } }).file.id;
    const [back] = await downloadFiles(user.api, [
      { remoteId: id, size: LARGE, hash: large.hash, tmpPath: path.join(dir, 'resumed-back.tmp') },
    ]);
    expect(back).toEqual({ ok: true });
  });

  it('resumes a large download from what the temp file holds, and after cuts', async () => {
    const user = await remote.signedInUser(server);
    const [uploaded] = await uploadFiles(user.api, [largeItem('down.bin')]);
    const id = (uploaded as { file: { id: string } }).file.id;

    // A killed run left the first 20 MB in the temp file: only the rest comes.
    const tmpPath = path.join(dir, 'resume.tmp');
    await writeFile(tmpPath, await readPrefix(20 * MB));
    let received = 0;
    const [resumed] = await downloadFiles(user.api, [{ remoteId: id, size: LARGE, hash: large.hash, tmpPath }], {
      onProgress: (bytes) => (received += bytes),
    });
    expect(resumed).toEqual({ ok: true });
    expect(received).toBe(LARGE - 20 * MB);
    expect((await stat(tmpPath)).size).toBe(LARGE);

    // Through a link that drops every 8-16 MB of answer.
    const cutter = await startDownloadCutter(server.url, 8 * MB, 16 * MB);
    try {
      const api = createApiClient({ server: cutter.origin, email: user.email, appPassword: user.appPassword, device: 'test-laptop' });
      const cutPath = path.join(dir, 'cut-down.tmp');
      const [cut] = await downloadFiles(api, [{ remoteId: id, size: LARGE, hash: large.hash, tmpPath: cutPath }]);
      expect(cut).toEqual({ ok: true });
      expect(cutter.cuts()).toBeGreaterThan(0);
      expect(cutter.passed()).toBeLessThan(LARGE + 2 * MB);
      expect(await sha256File(cutPath)).toBe(large.hash);
    } finally {
      await cutter.close();
    }
  });

  it('follows a download sent to the object store, without the bearer, repeating the Range there', async () => {
    const s3 = await startS3rver();
    const s3Server = await remote.startServer({ ...s3StorageEnv(s3), S3_PRESIGNED_DOWNLOADS: 'true' });
    try {
      const user = await remote.signedInUser(s3Server);
      const [uploaded] = await uploadFiles(user.api, [largeItem('presigned.bin')]);
      const id = (uploaded as { file: { id: string } }).file.id;
      const redirected = await fetch(`${s3Server.url}/api/files/${id}/download`, {
        headers: { authorization: `Bearer ${user.token}` },
        redirect: 'manual',
      });
      expect(redirected.status).toBe(302);
      const tmpPath = path.join(dir, 'presigned.tmp');
      await writeFile(tmpPath, await readPrefix(30 * MB));
      let received = 0;
      const [outcome] = await downloadFiles(user.api, [{ remoteId: id, size: LARGE, hash: large.hash, tmpPath }], {
        onProgress: (bytes) => (received += bytes),
      });
      expect(outcome).toEqual({ ok: true });
      expect(received).toBe(LARGE - 30 * MB);
    } finally {
      await s3Server.stop();
      await s3.stop();
    }
  });

  it('asks again for the rest of a batch download cut part-way, each file reported once', async () => {
    const user = await remote.signedInUser(server);
    const items = await Promise.all(Array.from({ length: 40 }, (_, index) => smallFile(`part-${index}.bin`, randomBytes(300 * 1024))));
    const uploaded = await uploadFiles(user.api, items);
    const cutter = await startDownloadCutter(server.url, 2 * MB, 4 * MB);
    try {
      const api = createApiClient({ server: cutter.origin, email: user.email, appPassword: user.appPassword, device: 'test-laptop' });
      const noted = noting(api);
      const reported: number[] = [];
      const downloads = uploaded.map((outcome, index) => ({
        remoteId: (outcome as { file: { id: string } }).file.id,
        size: items[index]?.size as number,
        hash: items[index]?.hash as string,
        tmpPath: path.join(dir, 'parts', `${index}.tmp`),
      }));
      const outcomes = await downloadFiles(noted.client, downloads, { onDone: (index) => reported.push(index) });
      expect(outcomes.every((outcome) => 'ok' in outcome)).toBe(true);
      expect(reported.sort((a, b) => a - b)).toEqual(downloads.map((_, index) => index));
      expect(cutter.cuts()).toBeGreaterThan(0);
      // One request per cut (and the last, unless the last cut came after the last file).
      const requests = noted.paths.filter((entry) => entry === 'POST /api/sync/downloads').length;
      expect(requests).toBeGreaterThan(1);
      expect(requests).toBeLessThanOrEqual(cutter.cuts() + 1);
      for (const [index, item] of items.entries()) expect(await sha256File(downloads[index]?.tmpPath as string)).toBe(item.hash);
    } finally {
      await cutter.close();
    }
  });
});
