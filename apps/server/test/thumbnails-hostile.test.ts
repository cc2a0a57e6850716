import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile } from '@cloudvault/test-support/drive';
import { THUMBNAIL_JOB } from '../src/background-jobs.ts';
import { hugePng, installed, pngAsMovie, redTransportStream } from './helpers/image-fixtures.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const FFMPEG = installed('ffmpeg', '-version');
const TOOLS_REQUIRED = process.env.REQUIRE_THUMBNAIL_TOOLS === '1';
if (!FFMPEG && !TOOLS_REQUIRED)
  console.warn('SKIPPED: hostile videos need ffmpeg (apt-get install -y ffmpeg); REQUIRE_THUMBNAIL_TOOLS=1 makes this a failure.');

let server: TestServer;
let workDir: string;
beforeAll(async () => {
  if (TOOLS_REQUIRED && !FFMPEG) throw new Error('REQUIRE_THUMBNAIL_TOOLS=1 but ffmpeg is missing: apt-get install -y ffmpeg');
  server = await startTestServer();
  workDir = await mkdtemp(path.join(os.tmpdir(), 'hostile-media-'));
});
afterAll(async () => {
  await server?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

const makeThumbnails = (fileId: string) => server.container.jobs.runNow(THUMBNAIL_JOB, { fileId });

/** The recorded outcome of the file's content: a failure's reason, or ready. */
async function thumbnailRow(fileId: string) {
  return server.container.database.db
    .selectFrom('thumbnails')
    .innerJoin('files', 'files.blob_key', 'thumbnails.blob_key')
    .select(['thumbnails.status', 'thumbnails.error'])
    .where('files.id', '=', fileId)
    .executeTakeFirst();
}

/** Uploads `content` as a video, runs its thumbnail job, and checks that no thumbnail came of it and the server still answers. */
async function expectNoThumbnail(token: string, content: Buffer | string, name: string, type: string) {
  const file = await createFile(server, token, content, { name, type });
  expect(file.preview).toBe('video');
  expect(await makeThumbnails(file.id)).toBe('failed');
  const answer = await server.request('GET', `/api/files/${file.id}/thumbnail`, { token });
  expect(answer.status).toBe(404);
  expect(answer.body.code).toBe('NO_THUMBNAIL');
  expect((await server.request('GET', '/api/health')).status).toBe(200);
  return (await thumbnailRow(file.id))?.error ?? '';
}

describe.skipIf(!FFMPEG && !TOOLS_REQUIRED)('thumbnails of hostile videos', () => {
  it('refuse a 12000x12000 PNG uploaded as video/mp4 before ffmpeg decodes it: its bytes are no video container', async () => {
    const { token } = await createUser(server);
    const error = await expectNoThumbnail(token, await hugePng(), 'huge.mp4', 'video/mp4');
    expect(error).toMatch(/not a video/i);
  });

  it('refuse the same frame inside a real movie by its pixel count (ffmpeg -max_pixels), not by running out of memory', async () => {
    const { token } = await createUser(server);
    const error = await expectNoThumbnail(token, await pngAsMovie(await hugePng(), workDir), 'huge.mov', 'video/quicktime');
    expect(error).toMatch(/max pixel/i);
  });

  it('never read a local file an HLS playlist names', async () => {
    const { token } = await createUser(server);
    // Red frames ffmpeg would happily show, were it to follow the playlist.
    const segment = redTransportStream(workDir, 'secret.ts');
    const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n${segment}\n#EXTINF:2,\nfile:${segment}\n#EXT-X-ENDLIST\n`;
    await expectNoThumbnail(token, playlist, 'local.m3u8', 'video/mp4');
    await expectNoThumbnail(token, `#EXTM3U\n#EXTINF:1,\n/etc/passwd\n#EXT-X-ENDLIST\n`, 'passwd.m3u8', 'video/mp2t');
  });

  it('never connect to a URL an HLS or DASH playlist names', async () => {
    const { token } = await createUser(server);
    let connections = 0;
    const listener = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as net.AddressInfo).port;
    try {
      const hls = `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nhttp://127.0.0.1:${port}/segment.ts\n#EXT-X-ENDLIST\n`;
      await expectNoThumbnail(token, hls, 'remote.m3u8', 'video/mp4');
      const dash = `<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT2S" minBufferTime="PT1S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">
<Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="1000" width="160" height="120" codecs="avc1.4d401e"><BaseURL>http://127.0.0.1:${port}/segment.mp4</BaseURL></Representation></AdaptationSet></Period></MPD>
`;
      await expectNoThumbnail(token, dash, 'remote.mpd', 'video/mp4');
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});
