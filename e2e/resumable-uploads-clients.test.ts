import { createHash } from 'node:crypto';
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFolder, downloadFile, listFiles } from '@cloudvault/test-support/drive';
import { openPage } from './helpers/browser.ts';
import { useE2eSession } from './helpers/session.ts';
import { uppyBundle } from './helpers/uppy.ts';

// Uppy (@uppy/core with @uppy/tus), a tus client the app does not use, uploading from one
// of our signed-in pages in Chromium (docs/decisions/0025-resumable-uploads.md): chunks,
// pause and resume, and POST with X-HTTP-Method-Override. Checked from the outside by
// the folder's listing and the downloaded bytes' sha256.

const session = useE2eSession('tus-clients');
const MiB = 1024 * 1024;
const CHUNK_BYTES = 5 * MiB;
const FILE_BYTES = 20 * MiB;

/** What the page keeps of its Uppy upload for the test to read. */
interface UppyRun {
  sha256: string;
  sent: number;
  done: { successful: number; failed: number; uploadUrl: string | null } | null;
  error: string | null;
}

/** The parts of Uppy's API the page uses (the bundle has no types of its own). */
interface UppyInstance {
  use(plugin: unknown, options: Record<string, unknown>): UppyInstance;
  addFile(file: { name: string; type: string; data: Blob; meta: Record<string, string> }): string;
  on(event: string, handler: (...args: never[]) => void): void;
  upload(): Promise<unknown>;
  pauseAll(): void;
  resumeAll(): void;
}

declare global {
  interface Window {
    uppyForTests: { Uppy: new (options: Record<string, unknown>) => UppyInstance; Tus: unknown };
    uppyRun: UppyRun;
    uppy: UppyInstance;
  }
}

let bundle: string;
beforeAll(async () => {
  bundle = await uppyBundle();
});

/** A signed-in dashboard with Uppy loaded into it, and every request it makes to /api/uploads. */
async function uppyPage() {
  const account = await createUser(session.server);
  const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/uploads')) requests.push(request);
  });
  await page.goto('/dashboard');
  await page.getByText('Your cloud is empty').waitFor();
  await page.evaluate(bundle);
  return { account, page, context, requests };
}

/**
 * Starts an Uppy upload of `size` random bytes made in the page into the folder, and
 * resolves once it is under way; `window.uppyRun` follows it.
 */
async function startUppyUpload(
  page: Page,
  options: { token: string; folderId: string; name: string; size: number; overridePatchMethod?: boolean },
) {
  await page.evaluate(
    async ({ token, folderId, name, size, chunkSize, overridePatchMethod }) => {
      const bytes = new Uint8Array(size);
      // getRandomValues fills at most 64 KiB a call.
      for (let at = 0; at < size; at += 65_536) crypto.getRandomValues(bytes.subarray(at, Math.min(size, at + 65_536)));
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
      const run: UppyRun = {
        sha256: Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join(''),
        sent: 0,
        done: null,
        error: null,
      };
      window.uppyRun = run;
      const { Uppy, Tus } = window.uppyForTests;
      const uppy = new Uppy({ autoProceed: false }).use(Tus, {
        endpoint: `${location.origin}/api/uploads`,
        chunkSize,
        headers: { Authorization: `Bearer ${token}` },
        retryDelays: [0, 500, 1000],
        overridePatchMethod,
      });
      window.uppy = uppy;
      uppy.on(
        'upload-progress',
        ((_file: unknown, progress: { bytesUploaded: number }) => (run.sent = progress.bytesUploaded)) as (...args: never[]) => void,
      );
      uppy.on('upload-error', ((_file: unknown, error: Error) => (run.error = error.message)) as (...args: never[]) => void);
      uppy.on('complete', ((result: { successful?: Array<{ tus?: { uploadUrl?: string } }>; failed?: unknown[] }) => {
        run.done = {
          successful: result.successful?.length ?? 0,
          failed: result.failed?.length ?? 0,
          uploadUrl: result.successful?.[0]?.tus?.uploadUrl ?? null,
        };
      }) as (...args: never[]) => void);
      // Uppy's own metadata is `name` and `type`; its tus plugin sends them as `filename` and `filetype` too.
      uppy.addFile({ name, type: 'application/octet-stream', data: new Blob([bytes]), meta: { folderId } });
      void uppy.upload();
    },
    { ...options, chunkSize: CHUNK_BYTES, overridePatchMethod: options.overridePatchMethod ?? false },
  );
}

const uppyRun = (page: Page) => page.evaluate(() => window.uppyRun);

async function uppyFinished(page: Page): Promise<UppyRun> {
  await page.waitForFunction(() => window.uppyRun.done !== null || window.uppyRun.error !== null, undefined, { timeout: 60_000 });
  return uppyRun(page);
}

/** The one file in the folder is the page's bytes: listed with their size, downloaded with their sha256. */
async function expectStored(token: string, folderId: string, name: string, run: UppyRun): Promise<string> {
  const files = await listFiles(session.server, token, folderId);
  expect(files.map((file) => [file.originalName, file.size])).toEqual([[name, FILE_BYTES]]);
  const downloaded = await downloadFile(session.server, token, files[0]!.id);
  expect(downloaded.status).toBe(200);
  expect(createHash('sha256').update(downloaded.bytes).digest('hex')).toBe(run.sha256);
  return files[0]!.id;
}

const tusHead = (token: string, uploadUrl: string) =>
  fetch(uploadUrl, { method: 'HEAD', headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' } });

describe('Uppy uploads over tus', () => {
  it('uploads a file in 5 MiB chunks into a folder with the exact bytes', async () => {
    const { account, page, context, requests } = await uppyPage();
    const folder = await createFolder(session.server, account.token, 'From Uppy');
    await startUppyUpload(page, { token: account.token, folderId: folder.id, name: 'uppy-chunks.bin', size: FILE_BYTES });
    const run = await uppyFinished(page);
    expect([run.error, run.done?.successful, run.done?.failed]).toEqual([null, 1, 0]);

    expect(requests.map((request) => request.method())).toEqual(['POST', 'PATCH', 'PATCH', 'PATCH', 'PATCH']);
    const fileId = await expectStored(account.token, folder.id, 'uppy-chunks.bin', run);
    // The upload Uppy knows answers from the outside as finished, naming the file.
    const head = await tusHead(account.token, run.done?.uploadUrl ?? '');
    expect([head.status, head.headers.get('upload-offset'), head.headers.get('x-file-id')]).toEqual([200, String(FILE_BYTES), fileId]);
    await context.close();
  });

  it("pauses mid-upload, then resumes from the server's offset and completes with the exact bytes", async () => {
    const { account, page, context, requests } = await uppyPage();
    const folder = await createFolder(session.server, account.token, 'Paused');
    // Chromium's own upload throttle: the upload lasts long enough to pause it in the middle.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 3 * MiB });
    await startUppyUpload(page, { token: account.token, folderId: folder.id, name: 'uppy-paused.bin', size: FILE_BYTES });

    // Past the first chunk, inside the second.
    await page.waitForFunction((bytes) => window.uppyRun.sent > bytes, CHUNK_BYTES + MiB, { timeout: 20_000 });
    await page.evaluate(() => window.uppy.pauseAll());
    const uploadUrl = new URL(requests.find((request) => request.method() === 'PATCH')!.url()).href;
    const paused = Number((await tusHead(account.token, uploadUrl)).headers.get('upload-offset'));
    expect(paused).toBeGreaterThanOrEqual(CHUNK_BYTES);
    expect(paused).toBeLessThan(FILE_BYTES);
    expect((await uppyRun(page)).done).toBeNull();

    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const sentBeforeResume = requests.length;
    const resumedHead = page.waitForResponse((response) => response.request().method() === 'HEAD' && response.url() === uploadUrl);
    await page.evaluate(() => window.uppy.resumeAll());
    // Resuming asks the server where it is, and goes on from exactly there.
    const offset = (await (await resumedHead).allHeaders())['upload-offset'];
    const run = await uppyFinished(page);
    expect([run.error, run.done?.successful]).toEqual([null, 1]);
    const afterResume = requests.slice(sentBeforeResume);
    expect(afterResume[0]?.method()).toBe('HEAD');
    expect(await afterResume.find((request) => request.method() === 'PATCH')?.headerValue('upload-offset')).toBe(offset);
    expect(Number(offset)).toBeGreaterThanOrEqual(paused);
    await expectStored(account.token, folder.id, 'uppy-paused.bin', run);
    await context.close();
  });

  it('sends its chunks as POST with X-HTTP-Method-Override: PATCH when told to, and the server takes them', async () => {
    const { account, page, context, requests } = await uppyPage();
    const folder = await createFolder(session.server, account.token, 'Overridden');
    await startUppyUpload(page, {
      token: account.token,
      folderId: folder.id,
      name: 'uppy-override.bin',
      size: FILE_BYTES,
      overridePatchMethod: true,
    });
    const run = await uppyFinished(page);
    expect([run.error, run.done?.successful]).toEqual([null, 1]);
    const chunks = requests.slice(1);
    expect(
      await Promise.all(chunks.map(async (request) => `${request.method()} ${await request.headerValue('x-http-method-override')}`)),
    ).toEqual(Array(4).fill('POST PATCH'));
    await expectStored(account.token, folder.id, 'uppy-override.bin', run);
    await context.close();
  });
});
