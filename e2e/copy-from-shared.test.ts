import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder, downloadFile, listFiles, listFolders } from '@cloudvault/test-support/drive';
import { VIEWPORTS, violationsInEachTheme } from './helpers/axe.ts';
import { randomContent, tile } from './helpers/drive.ts';
import { verifyViaOutbox } from './helpers/outbox.ts';
import { WITHOUT_SERVICE_WORKER } from './helpers/browser.ts';
import { useE2eSession } from './helpers/session.ts';

/*
 * Issue 36's "Copy to My Files": a recipient copies a folder shared with them, and a file from
 * inside it, into the root of their own drive (decision 0057), on one signed-in page resized
 * from desktop to phone. The owner's drive stays as it was.
 */

const session = useE2eSession('copy-from-shared');
let owner: Awaited<ReturnType<typeof createUser>>;
let recipient: Awaited<ReturnType<typeof createUser>>;
let context: BrowserContext;
let page: Page;
const plan = randomContent(5000);

const [DESKTOP, PHONE] = VIEWPORTS;
const shots = fileURLToPath(new URL('../.test-artifacts/screenshots/copy-from-shared', import.meta.url));
const toast = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).first();
const sharedRow = (name: string) => page.getByRole('list', { name: 'Folders shared with you' }).getByRole('listitem', { name });
const contentRow = (name: string) => page.getByRole('list', { name: 'Folder contents' }).getByRole('listitem', { name });
const names = <T extends { name?: string; originalName?: string }>(items: T[]) =>
  items.map((item) => item.name ?? item.originalName).sort();

/** Saved for a person to look at (.test-artifacts/screenshots/copy-from-shared), once the animations are over. */
async function screenshot(name: string): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  await mkdir(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

beforeAll(async () => {
  owner = await createUser(session.server, { firstName: 'Ada' });
  recipient = await createUser(session.server, { firstName: 'Grace' });
  // Private shares show only to a verified address.
  await verifyViaOutbox(session.server, recipient.email);
  const team = await createFolder(session.server, owner.token, 'Team');
  await createFile(session.server, owner.token, plan, { name: 'plan.bin', folderId: team.id });
  await createFile(session.server, owner.token, 'agenda', { name: 'notes.txt', type: 'text/plain', folderId: team.id });
  const shared = await fetch(`${session.server.url}/api/user/folders/${team.id}/share`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ shareType: 'private', email: recipient.email }),
  });
  expect(shared.status).toBe(200);

  context = await session.browser.newContext({ ...WITHOUT_SERVICE_WORKER, baseURL: session.server.url, viewport: DESKTOP.viewport });
  await context.addInitScript((token) => window.localStorage.setItem('token', token), recipient.token);
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
});
afterAll(() => context?.close());
beforeEach(() => {
  onTestFailed(async ({ task }) => {
    await mkdir(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, `${task.name.replace(/\W+/g, '-')}.png`), fullPage: true }).catch(() => {});
  });
});

describe('Copy to My Files from Shared with me (issue 36)', () => {
  it('copies a shared folder and a file inside it into My Files at desktop size; the owner keeps theirs', async () => {
    await page.goto('/shared');
    await sharedRow('Team').getByRole('button', { name: 'Copy Team to My Files' }).waitFor();
    expect(await violationsInEachTheme(page, { label: 'Shared with me (desktop)' })).toEqual([]);

    await sharedRow('Team').getByRole('button', { name: 'Copy Team to My Files' }).click();
    await toast('Copied to My Files').waitFor();

    await sharedRow('Team').getByRole('link', { name: 'Team' }).click();
    await contentRow('plan.bin').getByRole('button', { name: 'Copy plan.bin to My Files' }).waitFor();
    expect(await violationsInEachTheme(page, { label: 'shared folder (desktop)' })).toEqual([]);
    await contentRow('plan.bin').getByRole('button', { name: 'Copy plan.bin to My Files' }).click();
    await expect.poll(async () => names(await listFiles(session.server, recipient.token))).toEqual(['plan.bin']);

    // My Files shows both copies.
    await page.goto('/dashboard');
    await tile(page, 'Team').waitFor();
    await tile(page, 'plan.bin').waitFor();

    const [copiedFile] = await listFiles(session.server, recipient.token);
    expect((await downloadFile(session.server, recipient.token, copiedFile!.id)).bytes.equals(plan)).toBe(true);
    const [copiedFolder] = await listFolders(session.server, recipient.token);
    expect(copiedFolder!.name).toBe('Team');
    const inside = await listFiles(session.server, recipient.token, copiedFolder!.id);
    expect(names(inside)).toEqual(['notes.txt', 'plan.bin']);
    const copiedPlan = inside.find((file) => file.originalName === 'plan.bin')!;
    expect((await downloadFile(session.server, recipient.token, copiedPlan.id)).bytes.equals(plan)).toBe(true);

    // Nothing of the owner's changed.
    const ownerFolders = await listFolders(session.server, owner.token);
    expect(names(ownerFolders)).toEqual(['Team']);
    expect(await listFiles(session.server, owner.token)).toEqual([]);
    expect(names(await listFiles(session.server, owner.token, ownerFolders[0]!.id))).toEqual(['notes.txt', 'plan.bin']);
  });

  it('copies again from the keyboard at phone size: the action fits and the clash is numbered', async () => {
    await page.setViewportSize(PHONE.viewport);
    await page.goto('/shared');
    const copy = sharedRow('Team').getByRole('button', { name: 'Copy Team to My Files' });
    await copy.waitFor();
    const box = await copy.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.viewport.width);
    expect(await violationsInEachTheme(page, { label: 'Shared with me (phone)' })).toEqual([]);

    await copy.focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => names(await listFolders(session.server, recipient.token))).toEqual(['Team', 'Team (1)']);
    await toast(/Copied to My Files/).waitFor();
    await screenshot('shared-with-me-phone');

    // Inside the folder, each row's copy fits beside its download.
    await sharedRow('Team').getByRole('link', { name: 'Team' }).click();
    const copyFile = contentRow('plan.bin').getByRole('button', { name: 'Copy plan.bin to My Files' });
    await copyFile.waitFor();
    const fileBox = await copyFile.boundingBox();
    expect(fileBox!.x + fileBox!.width).toBeLessThanOrEqual(PHONE.viewport.width);
    expect(await violationsInEachTheme(page, { label: 'shared folder (phone)' })).toEqual([]);
    await screenshot('shared-folder-phone');
    await page.setViewportSize(DESKTOP.viewport);
  });
});
