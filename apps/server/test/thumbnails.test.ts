import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { BACKGROUND_JOBS, THUMBNAIL_JOB } from '../src/background-jobs.ts';
import { createVerifiedUser } from './helpers/factories.ts';
import {
  BLUE,
  blueWebm,
  bombPng,
  halves,
  halvesPdf,
  HALVES_SVG,
  imageBombPdf,
  installed,
  near,
  pixelAt,
  RED,
} from './helpers/image-fixtures.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const FFMPEG = installed('ffmpeg', '-version');
const TOOLS_REQUIRED = process.env.REQUIRE_THUMBNAIL_TOOLS === '1';
if (!FFMPEG && !TOOLS_REQUIRED) {
  console.warn('SKIPPED: video thumbnails need ffmpeg (apt-get install -y ffmpeg); REQUIRE_THUMBNAIL_TOOLS=1 makes this a failure.');
}

let server: TestServer;
let withoutPoppler: string;
const pathBefore = process.env.PATH;
beforeAll(async () => {
  // PDFs need no system package: a pdftoppm that always fails comes first on the PATH.
  withoutPoppler = await mkdtemp(path.join(os.tmpdir(), 'no-poppler-'));
  await writeFile(path.join(withoutPoppler, 'pdftoppm'), '#!/bin/sh\nexit 127\n', { mode: 0o755 });
  process.env.PATH = `${withoutPoppler}:${pathBefore}`;
  server = await startTestServer();
});
afterAll(async () => {
  process.env.PATH = pathBefore;
  await server.close();
  await rm(withoutPoppler, { recursive: true, force: true });
});

const makeThumbnails = (fileId: string) => server.container.jobs.runNow(THUMBNAIL_JOB, { fileId });

async function thumbnail(path: string, token?: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Uploads, runs the thumbnail job, and checks both sizes: WebP, within their bounds, red on the left and blue on the right. */
async function expectHalvesThumbnails(token: string, content: Buffer | string, name: string, type: string) {
  const file = await createFile(server, token, content, { name, type });
  expect(await makeThumbnails(file.id)).toBe('made');
  for (const [size, side] of [
    ['small', 256],
    ['large', 1280],
  ] as const) {
    const answer = await thumbnail(`/api/files/${file.id}/thumbnail?size=${size}&v=${file.contentTag}`, token);
    expect(answer.status, `${name} ${size}`).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(answer.bytes).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(side);
    expect(meta.width / meta.height).toBeCloseTo(2, 1);
    expect(near(await pixelAt(answer.bytes, 0.1, 0.5), RED), `${name} ${size} left`).toBe(true);
    expect(near(await pixelAt(answer.bytes, 0.9, 0.5), BLUE), `${name} ${size} right`).toBe(true);
  }
  return file;
}

describe('thumbnails', () => {
  it('are made by the job for JPEG, PNG, GIF, WebP, AVIF, TIFF and SVG, as WebP within each size', async () => {
    const { token } = await createUser(server);
    for (const format of ['jpeg', 'png', 'gif', 'webp', 'avif', 'tiff'] as const) {
      await expectHalvesThumbnails(token, await halves(format), `halves.${format}`, `image/${format}`);
    }
    const svg = await expectHalvesThumbnails(token, HALVES_SVG, 'halves.svg', 'image/svg+xml');
    // Rasterised at the large size, not left at the drawing's 40 px; never served as SVG.
    const large = await thumbnail(`/api/files/${svg.id}/thumbnail?size=large`, token);
    expect((await sharp(large.bytes).metadata()).width).toBe(1280);
    expect(large.bytes.toString('utf8')).not.toContain('<svg');
  });

  it('apply EXIF orientation and drop the metadata', async () => {
    const { token } = await createUser(server);
    // Orientation 6: shown turned a quarter clockwise, so the left (red) half ends on top.
    const file = await createFile(server, token, await halves('jpeg', { orientation: 6 }), { name: 'turned.jpg' });
    expect(await makeThumbnails(file.id)).toBe('made');
    const { bytes } = await thumbnail(`/api/files/${file.id}/thumbnail?size=large`, token);
    const meta = await sharp(bytes).metadata();
    expect(meta.height / meta.width).toBeCloseTo(2, 1);
    expect(near(await pixelAt(bytes, 0.5, 0.1), RED)).toBe(true);
    expect(near(await pixelAt(bytes, 0.5, 0.9), BLUE)).toBe(true);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  it("show a PDF's first page, drawn by pdf.js with no system package", async () => {
    const { token } = await createUser(server);
    await expectHalvesThumbnails(token, halvesPdf(), 'halves.pdf', 'application/pdf');
  });

  it('end a PDF whose page holds a 12000x12000 image within the limits, the server healthy', async () => {
    const { token } = await createUser(server);
    const bomb = await createFile(server, token, await imageBombPdf(), { name: 'bomb.pdf' });
    // Drawn without the image (too many pixels to decode), or no thumbnail: never the server's memory.
    expect(['made', 'failed']).toContain(await makeThumbnails(bomb.id));
    expect((await server.request('GET', '/api/health')).status).toBe(200);
  });

  describe.skipIf(!FFMPEG && !TOOLS_REQUIRED)('with ffmpeg', () => {
    it("show a video's frame", async () => {
      if (TOOLS_REQUIRED && !FFMPEG) throw new Error('REQUIRE_THUMBNAIL_TOOLS=1 but ffmpeg is missing: apt-get install -y ffmpeg');
      const { token } = await createUser(server);
      const video = await createFile(server, token, await blueWebm(), { name: 'blue.webm' });
      expect(video.preview).toBe('video');
      expect(await makeThumbnails(video.id)).toBe('made');
      const answer = await thumbnail(`/api/files/${video.id}/thumbnail`, token);
      expect(answer.status).toBe(200);
      expect(near(await pixelAt(answer.bytes, 0.5, 0.5), BLUE)).toBe(true);
    });
  });

  it('end a decompression bomb as "no thumbnail", recorded and not retried forever, with the server healthy', async () => {
    const { token } = await createUser(server);
    const bomb = await createFile(server, token, bombPng(), { name: 'bomb.png' });
    expect(bomb.preview).toBe('image');
    expect(await makeThumbnails(bomb.id)).toBe('failed');
    const answer = await server.request('GET', `/api/files/${bomb.id}/thumbnail`, { token });
    expect(answer).toMatchObject({ status: 404, body: { code: 'NO_THUMBNAIL' } });
    expect((await server.request('GET', '/api/health')).status).toBe(200);
    const corrupt = await createFile(server, token, Buffer.from('not a jpeg at all'), { name: 'corrupt.jpg' });
    expect(await makeThumbnails(corrupt.id)).toBe('failed');
    // Tried three times in all (the backfill retries a failure), then left alone.
    await makeThumbnails(bomb.id);
    await makeThumbnails(bomb.id);
    expect(await makeThumbnails(bomb.id)).toBe('given-up');
    const rows = await server.container.database.db
      .selectFrom('thumbnails')
      .select(['status', 'attempts', 'error'])
      .where('status', '=', 'failed')
      .execute();
    expect(rows).toEqual(
      expect.arrayContaining([expect.objectContaining({ status: 'failed', attempts: 3, error: expect.stringMatching(/pixel/i) })]),
    );
  });

  it('are 404 for a file without a preview (none will come), before the job ran (pending), and for another user', async () => {
    const owner = await createUser(server);
    const stranger = await createUser(server);
    const text = await createFile(server, owner.token, 'hello', { name: 'notes.txt' });
    expect(text.preview).toBe('text');
    expect(await makeThumbnails(text.id)).toBe('unsupported');
    expect(await server.request('GET', `/api/files/${text.id}/thumbnail`, { token: owner.token })).toMatchObject({
      status: 404,
      body: { code: 'NO_THUMBNAIL' },
    });
    const photo = await createFile(server, owner.token, await halves('png'), { name: 'photo.png' });
    expect(await server.request('GET', `/api/files/${photo.id}/thumbnail`, { token: owner.token })).toMatchObject({
      status: 404,
      body: { code: 'THUMBNAIL_PENDING' },
    });
    await makeThumbnails(photo.id);
    expect((await thumbnail(`/api/files/${photo.id}/thumbnail`, owner.token)).status).toBe(200);
    expect((await thumbnail(`/api/files/${photo.id}/thumbnail`, stranger.token)).status).toBe(404);
    expect((await thumbnail(`/api/files/${photo.id}/thumbnail`)).status).toBe(401);
    expect((await thumbnail(`/api/files/${photo.id}/thumbnail?size=huge`, owner.token)).status).toBe(400);
  });

  it('are cached by the browser for a week, revalidated by a strong ETag, never sniffed, and change URL with the content', async () => {
    const { token } = await createUser(server);
    // A plan with versions (Business): an upload under the same name gives the same file new bytes.
    await subscribe(server, token, 'PREMIUM');
    const photo = await createFile(server, token, await halves('png'), { name: 'cached.png' });
    await makeThumbnails(photo.id);
    const first = await thumbnail(`/api/files/${photo.id}/thumbnail?v=${photo.contentTag}`, token);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, max-age=604800');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('content-security-policy')).toContain('sandbox');
    const again = await thumbnail(`/api/files/${photo.id}/thumbnail?v=${photo.contentTag}`, token, { 'if-none-match': etag as string });
    expect(again.status).toBe(304);

    // New bytes under the same name: a new contentTag in the listing, a new thumbnail with a new ETag.
    const replaced = await createFile(server, token, await halves('jpeg'), { name: 'cached.png' });
    expect(replaced.id).toBe(photo.id);
    expect(replaced.contentTag).not.toBe(photo.contentTag);
    const listed = (await server.request('GET', '/api/files', { token })).body.files.find((file: { id: string }) => file.id === photo.id);
    expect(listed).toMatchObject({ preview: 'image', contentTag: replaced.contentTag });
    expect((await thumbnail(`/api/files/${photo.id}/thumbnail?v=${replaced.contentTag}`, token)).status).toBe(404);
    await makeThumbnails(photo.id);
    const fresh = await thumbnail(`/api/files/${photo.id}/thumbnail?v=${replaced.contentTag}`, token);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('etag')).not.toBe(etag);

    // The earlier bytes restored: their thumbnails were kept with their version, and serve again at once.
    const [version] = (await server.request('GET', `/api/files/${photo.id}/versions`, { token })).body.versions;
    const restored = await server.request('POST', `/api/files/${photo.id}/versions/${version.id}/restore`, { token });
    expect(restored.body.file.contentTag).toBe(photo.contentTag);
    const back = await thumbnail(`/api/files/${photo.id}/thumbnail?v=${photo.contentTag}`, token);
    expect(back.headers.get('etag')).toBe(etag);
  });

  it('are deleted from the store with their file, and do not count towards storage', async () => {
    const { token } = await createUser(server);
    const photo = await createFile(server, token, await halves('png'), { name: 'gone.png' });
    const storageBefore = (await server.request('GET', '/api/user/dashboard', { token })).body.storageInfo.storageUsed;
    await makeThumbnails(photo.id);
    expect((await server.request('GET', '/api/user/dashboard', { token })).body.storageInfo.storageUsed).toBe(storageBefore);
    const { db } = server.container.database;
    const row = await db
      .selectFrom('thumbnails')
      .innerJoin('files', 'files.blob_key', 'thumbnails.blob_key')
      .select(['small_key', 'large_key'])
      .where('files.id', '=', photo.id)
      .executeTakeFirstOrThrow();
    const keys = [row.small_key as string, row.large_key as string];
    for (const key of keys) expect(await server.container.blobs.exists(key)).toBe(true);
    // The sweeper keeps them however old: their row references them.
    for (const key of keys) await server.setBlobTime(key, new Date('2020-01-01T00:00:00Z'));
    await server.container.jobs.runNow(BACKGROUND_JOBS.storageSweeper);
    for (const key of keys) expect(await server.container.blobs.exists(key)).toBe(true);

    expect((await server.request('DELETE', `/api/files/${photo.id}`, { token })).status).toBe(200);
    expect((await server.request('DELETE', '/api/trash', { token })).status).toBe(204);
    await server.container.jobs.runNow(BACKGROUND_JOBS.blobDeletion);
    for (const key of keys) expect(await server.container.blobs.exists(key)).toBe(false);
    expect(await db.selectFrom('thumbnails').select('blob_key').where('small_key', 'in', keys).execute()).toEqual([]);
  });

  it('are made by the backfill for files that have none, once', async () => {
    const { token } = await createUser(server);
    const photo = await createFile(server, token, await halves('webp'), { name: 'old.webp' });
    // As if uploaded before thumbnails, or its queued job lost with an in-process node.
    const first = (await server.container.jobs.runNow(BACKGROUND_JOBS.thumbnailBackfill)) as Record<string, number>;
    expect(first.made).toBeGreaterThanOrEqual(1);
    expect((await thumbnail(`/api/files/${photo.id}/thumbnail`, token)).status).toBe(200);
    const second = (await server.container.jobs.runNow(BACKGROUND_JOBS.thumbnailBackfill)) as Record<string, number>;
    expect(second.made ?? 0).toBe(0);
  });
});

describe('thumbnails through shares', () => {
  it('follow file links, folder links (inside the folder only), their passwords and expiry', async () => {
    const owner = await createUser(server);
    await subscribe(server, owner.token, 'PRO');
    const folder = await createFolder(server, owner.token, 'Album');
    const inside = await createFile(server, owner.token, await halves('png'), { name: 'in.png', folderId: folder.id });
    const outside = await createFile(server, owner.token, await halves('png'), { name: 'out.png' });
    await makeThumbnails(inside.id);
    await makeThumbnails(outside.id);

    const fileLink = (
      await server.request('POST', `/api/files/${outside.id}/share`, { token: owner.token, body: { expiresIn: 1 } })
    ).body.shareUrl.split('/s/')[1];
    expect((await server.request('GET', `/api/public/shares/${fileLink}`)).body).toMatchObject({
      preview: 'image',
      contentTag: outside.contentTag,
    });
    expect((await thumbnail(`/api/public/shares/${fileLink}/thumbnail?size=large`)).status).toBe(200);

    const folderLink = (
      await server.request('POST', `/api/user/folders/${folder.id}/share`, {
        token: owner.token,
        body: { shareType: 'public', password: 'open sesame' },
      })
    ).body.shareUrl.split('/s/')[1];
    const locked = await thumbnail(`/api/public/shares/${folderLink}/files/${inside.id}/thumbnail`);
    expect(locked.status).toBe(401);
    const { accessToken } = (await server.request('POST', `/api/public/shares/${folderLink}/access`, { body: { password: 'open sesame' } }))
      .body;
    expect((await thumbnail(`/api/public/shares/${folderLink}/files/${inside.id}/thumbnail?access=${accessToken}`)).status).toBe(200);
    expect(
      (await thumbnail(`/api/public/shares/${folderLink}/files/${inside.id}/thumbnail`, undefined, { 'x-share-access': accessToken }))
        .status,
    ).toBe(200);
    expect((await thumbnail(`/api/public/shares/${folderLink}/files/${outside.id}/thumbnail?access=${accessToken}`)).status).toBe(404);
    expect((await thumbnail(`/api/public/shares/${folderLink}/thumbnail?access=${accessToken}`)).status).toBe(404);

    server.clock.advance(2 * 60 * 60 * 1000);
    expect((await thumbnail(`/api/public/shares/${fileLink}/thumbnail`)).status).toBe(410);
  });

  it('reach recipients of a folder shared privately (Shared with me) through the owner route', async () => {
    const owner = await createUser(server);
    const recipient = await createVerifiedUser(server);
    const folder = await createFolder(server, owner.token, 'For you');
    const photo = await createFile(server, owner.token, await halves('gif'), { name: 'shared.gif', folderId: folder.id });
    await makeThumbnails(photo.id);
    expect((await thumbnail(`/api/files/${photo.id}/thumbnail`, recipient.token)).status).toBe(404);
    const shared = await server.request('POST', `/api/user/folders/${folder.id}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: recipient.email },
    });
    expect(shared.status).toBe(200);
    const listed = (await server.request('GET', `/api/files?folderId=${folder.id}`, { token: recipient.token })).body.files;
    expect(listed).toEqual([expect.objectContaining({ id: photo.id, preview: 'image', contentTag: photo.contentTag })]);
    expect((await thumbnail(`/api/files/${photo.id}/thumbnail`, recipient.token)).status).toBe(200);
  });
});

describe("a file's bytes for the viewer", () => {
  /** What a media element or pdf.js sends: no Authorization, a Range. */
  const asMediaElement = (url: string) => fetch(`${server.url}${url}`, { headers: { range: 'bytes=0-99' } });
  const expectPlayable = (response: Response, type: string) => {
    expect(response.status).toBe(206);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('content-range')).toBe('bytes 0-99/1000');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
  };

  it('come through signed links with Range and a playable type for owners and recipients, and through links for visitors; never HTML or SVG', async () => {
    const owner = await createUser(server);
    const recipient = await createVerifiedUser(server);
    const folder = await createFolder(server, owner.token, 'Media');
    await server.request('POST', `/api/user/folders/${folder.id}/share`, {
      token: owner.token,
      body: { shareType: 'private', email: recipient.email },
    });
    const bytes = Buffer.alloc(1000, 7);
    const types = { 'clip.webm': 'video/webm', 'song.ogg': 'audio/ogg', 'paper.pdf': 'application/pdf', 'notes.txt': 'text/plain' };
    for (const [name, type] of Object.entries(types)) {
      const file = await createFile(server, owner.token, bytes, { name, type, folderId: folder.id });
      for (const token of [owner.token, recipient.token]) {
        const link = await server.request('POST', `/api/files/${file.id}/download-link`, { token });
        expectPlayable(await asMediaElement(link.body.url), type);
      }
    }
    for (const [name, type] of [
      ['drawing.svg', 'image/svg+xml'],
      ['page.html', 'text/html'],
    ]) {
      const file = await createFile(server, owner.token, bytes, { name, type, folderId: folder.id });
      const link = await server.request('POST', `/api/files/${file.id}/download-link`, { token: owner.token });
      expectPlayable(await asMediaElement(link.body.url), 'application/octet-stream');
    }
    const video = await createFile(server, owner.token, bytes, { name: 'shared.webm', type: 'video/webm' });
    const fileLink = (await server.request('POST', `/api/files/${video.id}/share`, { token: owner.token, body: {} })).body.shareUrl.split(
      '/s/',
    )[1];
    expectPlayable(await asMediaElement(`/api/public/shares/${fileLink}/download`), 'video/webm');
  });
});
