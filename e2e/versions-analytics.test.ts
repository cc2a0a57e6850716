import { mkdtemp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFile, createFolder, listFiles } from '@cloudvault/test-support/drive';
import { formatBytes } from '../packages/contract/src/format.ts';
import { useE2eSession } from './helpers/session.ts';
import { openPage } from './helpers/browser.ts';
import { downloadedBytes, randomContent, tile } from './helpers/drive.ts';

const session = useE2eSession('versions');

const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).first();
const UPLOADED = '1 file uploaded successfully!';

/**
 * Picks a file in the dashboard's Upload dialog and waits until it is stored; `onClash` is the
 * button to press when the folder already holds the name (docs/decisions/0050-name-clashes.md).
 */
async function uploadThroughDashboard(page: Page, name: string, content: Buffer, onClash?: 'Replace'): Promise<void> {
  const dir = await mkdtemp(path.join(session.workDir, 'upload-'));
  const file = path.join(dir, name);
  await writeFile(file, content);
  // An earlier upload's toast may still show for seconds: each is marked with its text, and the
  // wait is for a toast that is new or whose text changed (a repeat may merge into the shown one
  // with a count, decision 0055), rather than for the earlier one to go.
  await page.evaluate((text) => {
    for (const shown of Array.from(document.querySelectorAll('[role="status"]')))
      if (shown.textContent?.includes(text)) shown.setAttribute('data-text-before', shown.textContent);
  }, UPLOADED);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.getByRole('dialog', { name: 'Upload Files' }).getByLabel('Upload files', { exact: true }).setInputFiles(file);
  if (onClash)
    await page
      .getByRole('dialog', { name: `“${name}” already exists in “Reports”` })
      .getByRole('button', { name: onClash })
      .click();
  await page.waitForFunction(
    (text) =>
      Array.from(document.querySelectorAll('[role="status"]')).some(
        (shown) => shown.textContent?.includes(text) && shown.getAttribute('data-text-before') !== shown.textContent,
      ),
    UPLOADED,
    { timeout: 20_000 },
  );
}

async function openVersionHistory(page: Page, name: string) {
  await tile(page, name).getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: 'Version history' }).click();
  return page.getByRole('dialog', { name: 'Version history' });
}

describe('version history and analytics', () => {
  it(
    'on Business: a second upload keeps the first as a version, which is restored and downloaded; the Usage tab charts the drive',
    { timeout: 180_000 },
    async () => {
      const account = await createUser(session.server, { firstName: 'Vera' });
      await subscribe(session.server, account.token, 'PREMIUM');
      const reports = await createFolder(session.server, account.token, 'Reports');
      const first = randomContent(30_000);
      const second = randomContent(50_000);
      const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });

      // The same name twice in the same folder, replaced when asked: one file, the first bytes kept as a version.
      await page.goto(`/dashboard?folder=${reports.id}`);
      await page.getByText('This folder is empty').waitFor();
      await uploadThroughDashboard(page, 'plan.txt', first);
      await uploadThroughDashboard(page, 'plan.txt', second, 'Replace');
      const files = await listFiles(session.server, account.token, reports.id);
      expect(files.map((file) => `${file.originalName} ${file.size}`)).toEqual([`plan.txt ${second.length}`]);

      const dialog = await openVersionHistory(page, 'plan.txt');
      const versions = dialog.getByRole('list', { name: 'Versions' });
      await versions.getByRole('listitem').filter({ hasText: 'Current version' }).getByText(formatBytes(second.length)).waitFor();
      const firstVersion = versions.getByRole('listitem', { name: /^Version of / });
      expect(await firstVersion.count()).toBe(1);
      await firstVersion.getByText(formatBytes(first.length)).waitFor();

      // Restore: the toast gives the file's new size and the list swaps.
      await firstVersion.getByRole('button', { name: 'Restore' }).click();
      await toast(page, `Version restored. The file is now ${formatBytes(first.length)}.`).waitFor();
      await versions.getByRole('listitem').filter({ hasText: 'Current version' }).getByText(formatBytes(first.length)).waitFor();
      await firstVersion.getByText(formatBytes(second.length)).waitFor();

      // The replaced bytes download from the history through a signed link.
      let download = page.waitForEvent('download');
      await firstVersion.getByRole('button', { name: 'Download' }).click();
      let saved = await download;
      expect(saved.suggestedFilename()).toBe('plan.txt');
      expect((await downloadedBytes(saved)).equals(second)).toBe(true);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });

      // The file itself now holds the first bytes.
      await tile(page, 'plan.txt').hover();
      download = page.waitForEvent('download');
      await tile(page, 'plan.txt').getByRole('button', { name: 'Download', exact: true }).click();
      saved = await download;
      expect((await downloadedBytes(saved)).equals(first)).toBe(true);

      // A shared file downloaded twice, and a second, smaller file at the top.
      const notes = await createFile(session.server, account.token, randomContent(4_000), { name: 'notes.png', type: 'image/png' });
      const shared = await fetch(`${session.server.url}/api/files/${notes.id}/share`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      const shareToken = ((await shared.json()) as { shareUrl: string }).shareUrl.split('/s/')[1];
      for (let count = 0; count < 2; count++)
        expect((await fetch(`${session.server.url}/api/public/shares/${shareToken}/download`)).status).toBe(200);
      const storageUsed = first.length + second.length + 4_000;

      // Subscription & Billing → Usage: the four parts of the analytics.
      await page.goto('/subscription');
      await page.getByRole('tab', { name: 'Usage' }).click();
      const analytics = page.getByRole('region', { name: 'Analytics' });
      const storage = analytics.getByRole('region', { name: 'Storage over time' });
      const storageTable = storage.getByRole('table', { name: 'Storage used per day' });
      await storageTable.getByRole('cell', { name: formatBytes(storageUsed), exact: true }).waitFor();

      const categories = analytics.getByRole('list', { name: 'Space by file type' });
      await categories
        .getByRole('listitem')
        .filter({ hasText: 'Documents' })
        .getByText(`${formatBytes(first.length)} · 1 file`)
        .waitFor();
      await categories
        .getByRole('listitem')
        .filter({ hasText: 'Images' })
        .getByText(`${formatBytes(4_000)} · 1 file`)
        .waitFor();

      const downloads = analytics.getByRole('list', { name: 'Downloads per share' });
      await downloads.getByRole('listitem').filter({ hasText: 'notes.png' }).getByText('2 downloads').waitFor();

      const largestFiles = analytics.getByRole('list', { name: 'Largest files' });
      const fileRows = largestFiles.getByRole('listitem');
      await fileRows.nth(0).getByRole('link', { name: 'plan.txt: open its folder' }).waitFor();
      await fileRows.nth(0).getByText(formatBytes(first.length), { exact: true }).waitFor();
      await fileRows.nth(1).getByRole('link', { name: 'notes.png: open its folder' }).waitFor();
      await fileRows.nth(1).getByText(formatBytes(4_000), { exact: true }).waitFor();
      expect(await fileRows.count()).toBe(2);
      const largestFolders = analytics.getByRole('list', { name: 'Largest folders' });
      await largestFolders.getByRole('link', { name: 'Reports: open the folder' }).waitFor();
      expect(await largestFolders.getByRole('link', { name: 'Reports: open the folder' }).getAttribute('href')).toBe(
        `/dashboard?folder=${reports.id}`,
      );
      // Three charts drawn (storage, categories, downloads), each hidden from assistive technology behind its text.
      expect(await analytics.locator('svg.recharts-surface').count()).toBe(3);

      // The largest file's link opens the folder it is in.
      await largestFiles.getByRole('link', { name: 'plan.txt: open its folder' }).click();
      await page.waitForURL(new RegExp(`/dashboard\\?folder=${reports.id}$`));
      await tile(page, 'plan.txt').waitFor();
      await context.close();
    },
  );

  it('on Free: the history is an upgrade prompt and the Usage tab a preview', { timeout: 60_000 }, async () => {
    const account = await createUser(session.server);
    await createFile(session.server, account.token, 'draft', { name: 'draft.txt', type: 'text/plain' });
    const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
    const analyticsCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/analytics')) analyticsCalls.push(request.url());
    });

    await page.goto('/dashboard');
    const dialog = await openVersionHistory(page, 'draft.txt');
    await dialog.getByText('Version history is part of Business').waitFor();
    expect(await dialog.getByRole('link', { name: 'Upgrade to Business' }).getAttribute('href')).toBe('/subscription');
    expect(await dialog.getByRole('button', { name: 'Restore' }).count()).toBe(0);
    await dialog.getByRole('link', { name: 'Upgrade to Business' }).click();
    await page.waitForURL(/\/subscription$/);

    await page.getByRole('tab', { name: 'Usage' }).click();
    const analytics = page.getByRole('region', { name: 'Analytics' });
    await analytics.getByText('See where your space and your downloads go').waitFor();
    expect(await analytics.getByRole('link', { name: 'See the Business plan' }).getAttribute('href')).toBe('/pricing');
    expect(await analytics.locator('svg.recharts-surface').count()).toBe(0);
    expect(analyticsCalls).toEqual([]);
    await context.close();
  });
});
