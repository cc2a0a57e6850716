import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { callApi } from '@cloudvault/test-support/running-server';
import { createFile, createFolder, downloadFile, listFiles, listFolders } from '@cloudvault/test-support/drive';
import { THEMES, violationsOf } from './helpers/axe.ts';
import { openPage } from './helpers/browser.ts';
import { pressToolbarButton, tile } from './helpers/drive.ts';
import { useE2eSession } from './helpers/session.ts';

/**
 * Name clashes and folder uploads from the upload dialog (issue 36, docs/decisions/0050-name-clashes.md):
 * one server, one signed-in page, resized to a phone for the last journey.
 */
const session = useE2eSession('name-clashes');
let page: Page;
let token: string;

beforeAll(async () => {
  ({ token } = await createUser(session.server));
});

/** The one signed-in page, opened by the first test (openPage registers its screenshot on failure there). */
async function signedIn(): Promise<void> {
  if (page) return;
  ({ page } = await openPage(session.browser, session.server.url, { token }));
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Upload', exact: true }).first().waitFor();
}
afterAll(() => page?.context().close());

const text = async (id: string) => (await downloadFile(session.server, token, id)).bytes.toString();
const fileNamed = async (name: string, folderId: string | null = null) =>
  (await listFiles(session.server, token, folderId)).find((file) => file.originalName === name);
const trashed = async () => (await callApi<{ files: Array<{ id: string }> }>(session.server, token, 'GET', '/trash')).files;

/** The toolbar's Upload button, in its More menu where the phone's toolbar keeps it there. */
async function openUploadDialog(): Promise<void> {
  const upload = page.getByRole('button', { name: 'Upload', exact: true }).first();
  if (await upload.isVisible()) await upload.click();
  else await pressToolbarButton(page, 'Upload');
}

/** Opens the upload dialog and picks files in its file chooser. */
async function uploadThroughDialog(files: Array<{ name: string; content: string }>): Promise<void> {
  await openUploadDialog();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.waitFor();
  await dialog
    .getByLabel('Upload files', { exact: true })
    .setInputFiles(files.map(({ name, content }) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(content) })));
}

const clashDialog = (name: string, folder = 'My Files') => page.getByRole('dialog', { name: `“${name}” already exists in “${folder}”` });

/** Axe on the clash dialog in both themes, then back to light. */
async function expectAccessible(label: string): Promise<void> {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    expect(await violationsOf(page, { label: `${label} ${theme}`, scope: '[role=dialog]' })).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Waits for the server to hold `name` with `content` (the upload landed). */
async function waitForContent(name: string, content: string): Promise<void> {
  await expect
    .poll(async () => {
      const file = await fileNamed(name);
      return file ? text(file.id) : undefined;
    })
    .toBe(content);
}

describe('name clashes at 1280×800', () => {
  it('asks before uploading onto a taken name: Keep both lists both, Replace puts the old file in Trash (Free has no versions)', async () => {
    const old = await createFile(session.server, token, 'old', { name: 'report.pdf' });
    await signedIn();
    await page.reload();
    await tile(page, 'report.pdf').waitFor();

    await uploadThroughDialog([{ name: 'report.pdf', content: 'kept too' }]);
    const asked = clashDialog('report.pdf');
    await asked.waitFor();
    await expectAccessible('clash dialog desktop');
    await asked.getByRole('button', { name: 'Keep both' }).click();
    await tile(page, 'report (1).pdf').waitFor();
    expect(await text(old.id)).toBe('old');

    await uploadThroughDialog([{ name: 'report.pdf', content: 'the new one' }]);
    await clashDialog('report.pdf').getByRole('button', { name: 'Replace' }).click();
    await waitForContent('report.pdf', 'the new one');
    expect((await trashed()).map((file) => file.id)).toEqual([old.id]);
    expect((await listFiles(session.server, token)).map((file) => file.originalName).sort()).toEqual(['report (1).pdf', 'report.pdf']);
  });

  it('asks once for a batch of three clashes with "Apply to all" and Skip, and uploads the rest', async () => {
    await signedIn();
    for (const name of ['a.txt', 'b.txt', 'c.txt']) await createFile(session.server, token, `old ${name}`, { name });
    await page.reload();
    await tile(page, 'c.txt').waitFor();
    await uploadThroughDialog(['a.txt', 'b.txt', 'c.txt', 'd.txt'].map((name) => ({ name, content: `new ${name}` })));
    const asked = clashDialog('a.txt');
    await asked.getByRole('checkbox', { name: 'Apply to all 3 conflicts' }).check();
    await asked.getByRole('button', { name: 'Skip' }).click();
    await tile(page, 'd.txt').waitFor();
    await expect.poll(() => clashDialog('b.txt').count()).toBe(0);
    for (const name of ['a.txt', 'b.txt', 'c.txt']) expect(await text((await fileNamed(name))!.id)).toBe(`old ${name}`);
    expect(await fileNamed('a (1).txt')).toBeUndefined();
  });

  it('asks when a file is dragged onto a folder holding its name, and Keep both moves it in as "name (1).ext"', async () => {
    await signedIn();
    const archive = await createFolder(session.server, token, 'Archive');
    await createFile(session.server, token, 'archived', { name: 'a.txt', folderId: archive.id });
    await page.reload();
    await tile(page, 'Archive').waitFor();
    await tile(page, 'a.txt').dragTo(tile(page, 'Archive'));
    await clashDialog('a.txt', 'Archive').getByRole('button', { name: 'Keep both' }).click();
    await expect
      .poll(async () => (await listFiles(session.server, token, archive.id)).map((file) => file.originalName).sort())
      .toEqual(['a (1).txt', 'a.txt']);
    await expect.poll(() => tile(page, 'a.txt').count()).toBe(0);
  });

  it('uploads a folder picked with the dialog’s "Upload folder", keeping its tree', async () => {
    await signedIn();
    const root = path.join(session.workDir, 'Holiday');
    await mkdir(path.join(root, '2024'), { recursive: true });
    await writeFile(path.join(root, 'notes.txt'), 'notes');
    await writeFile(path.join(root, '2024', 'beach.txt'), 'beach');
    await openUploadDialog();
    const dialog = page.getByRole('dialog', { name: 'Upload Files' });
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Upload folder' }).click();
    await (await chooser).setFiles(root);
    await tile(page, 'Holiday').waitFor();
    const holiday = (await listFolders(session.server, token)).find((folder) => folder.name === 'Holiday')!;
    const year = (await listFolders(session.server, token, holiday.id)).find((folder) => folder.name === '2024')!;
    await expect
      .poll(async () => (await listFiles(session.server, token, year.id)).map((file) => file.originalName))
      .toEqual(['beach.txt']);
    expect((await listFiles(session.server, token, holiday.id)).map((file) => file.originalName)).toEqual(['notes.txt']);
  });
});

describe('name clashes at 390×844', () => {
  it('asks on a phone too, the dialog fitting the screen and accessible in both themes', async () => {
    await signedIn();
    await page.setViewportSize({ width: 390, height: 844 });
    await tile(page, 'report.pdf').waitFor();
    await uploadThroughDialog([{ name: 'report.pdf', content: 'from the phone' }]);
    const asked = clashDialog('report.pdf');
    await asked.waitFor();
    const box = (await asked.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await expectAccessible('clash dialog phone');
    await asked.getByRole('button', { name: 'Keep both' }).click();
    await tile(page, 'report (2).pdf').waitFor();
  });
});
