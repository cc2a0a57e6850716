import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { subscribe } from '@cloudvault/test-support/checkout';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { verifyViaOutbox } from './helpers/outbox.ts';
import { openPage } from './helpers/browser.ts';
import { useE2eSession } from './helpers/session.ts';
import { downloadedBytes, randomContent, readZip, tile } from './helpers/drive.ts';

const session = useE2eSession('sharing');

const toast = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).first();
const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Folder path' });

/** A signed-in page whose clipboard the test can read back (the share dialogs copy links). */
async function signedIn(token: string): Promise<{ page: Page; context: BrowserContext }> {
  const opened = await openPage(session.browser, session.server.url, { token });
  await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.server.url });
  return opened;
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** A visitor with no account, in a browser context of their own. */
const visitor = () => openPage(session.browser, session.server.url);

/** The bytes the browser saves when `click` starts a download. */
async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [started] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: started.suggestedFilename(), bytes: await downloadedBytes(started) };
}

async function shareFolderPublicly(page: Page, name: string): Promise<string> {
  await tile(page, name).hover();
  await tile(page, name).getByRole('button', { name: 'Share folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share Folder' });
  expect(await dialog.getByRole('radio', { name: /Anyone with the link/ }).isChecked()).toBe(true);
  await dialog.getByRole('button', { name: 'Share' }).click();
  await dialog.waitFor({ state: 'detached' });
  await toast(page, 'Public link copied to clipboard').waitFor();
  return clipboard(page);
}

describe('sharing from the dashboard to a visitor', () => {
  it('shares a folder publicly; a signed-out visitor browses into a sub-folder, downloads a file and the whole zip', async () => {
    const owner = await createUser(session.server, { firstName: 'Ada', lastName: 'Lovelace' });
    const holiday = await createFolder(session.server, owner.token, 'Holiday');
    const photos = await createFolder(session.server, owner.token, 'Photos', holiday.id);
    const beach = randomContent(300_000);
    await createFile(session.server, owner.token, beach, { name: 'beach.bin', folderId: photos.id });
    await createFile(session.server, owner.token, 'pack sunscreen', { name: 'notes.txt', type: 'text/plain', folderId: holiday.id });

    const { page, context } = await signedIn(owner.token);
    await page.goto('/dashboard');
    const link = await shareFolderPublicly(page, 'Holiday');
    expect(link).toMatch(new RegExp(`^${session.server.url}/s/[A-Za-z0-9_-]{40,}$`));

    const guest = await visitor();
    await guest.page.goto(link);
    await guest.page.getByRole('heading', { level: 1, name: 'Holiday' }).waitFor();
    // Private profile (the default): the first name only.
    await guest.page.getByText('Shared by Ada', { exact: true }).waitFor();
    // Free plan: a folder link ends after 24 hours, like a file link.
    await guest.page.getByText(/^Link expires /).waitFor();
    const list = guest.page.getByRole('list', { name: 'Folder contents' });
    await list.getByRole('listitem', { name: 'notes.txt' }).waitFor();
    // Read-only: nothing to upload, rename or delete.
    expect(await guest.page.getByRole('button', { name: /Upload|Delete|Rename/ }).count()).toBe(0);

    await list.getByRole('link', { name: /Photos/ }).click();
    await guest.page.waitForURL(/\?folder=/);
    await list.getByRole('listitem', { name: 'beach.bin' }).waitFor();
    expect(await crumbs(guest.page).getByRole('link').allInnerTexts()).toEqual(['Holiday', 'Photos']);
    const file = await download(guest.page, () => list.getByRole('link', { name: 'Download beach.bin' }).click());
    expect(file.name).toBe('beach.bin');
    expect(file.bytes.equals(beach)).toBe(true);

    const zip = await download(guest.page, () => guest.page.getByRole('link', { name: 'Download all' }).click());
    expect(zip.name).toBe('Holiday.zip');
    const entries = await readZip(zip.bytes);
    expect([...entries.keys()].sort()).toEqual(['Photos/', 'Photos/beach.bin', 'notes.txt']);
    expect((entries.get('Photos/beach.bin') as Buffer).equals(beach)).toBe(true);

    // Back up through the breadcrumbs.
    await crumbs(guest.page).getByRole('link', { name: 'Holiday' }).click();
    await list.getByRole('listitem', { name: 'notes.txt' }).waitFor();
    await guest.context.close();
    await context.close();
  });

  it('shares a file by link; the visitor sees its name, size, owner and expiry and downloads it', async () => {
    const owner = await createUser(session.server, { firstName: 'Ada' });
    const bytes = randomContent(2048);
    await createFile(session.server, owner.token, bytes, { name: 'report.pdf', type: 'application/pdf' });

    const { page, context } = await signedIn(owner.token);
    await page.goto('/dashboard');
    await tile(page, 'report.pdf').hover();
    await tile(page, 'report.pdf').getByRole('button', { name: 'Share', exact: true }).click();
    // A file is shared through its dialog, as a folder is; a link is the default choice.
    await page.getByRole('dialog', { name: 'Share File' }).getByRole('button', { name: 'Share', exact: true }).click();
    await toast(page, 'Share link copied!').waitFor();
    const link = await clipboard(page);

    const guest = await visitor();
    await guest.page.goto(link);
    await guest.page.getByRole('heading', { level: 1, name: 'report.pdf' }).waitFor();
    await guest.page.getByText('2 KB', { exact: true }).waitFor();
    await guest.page.getByText('Shared by Ada', { exact: true }).waitFor();
    await guest.page.getByText(/^Link expires /).waitFor();
    const saved = await download(guest.page, () => guest.page.getByRole('link', { name: 'Download' }).click());
    expect(saved.name).toBe('report.pdf');
    expect(saved.bytes.equals(bytes)).toBe(true);
    await guest.context.close();

    // The same link opens for a signed-in user too, inside the app's frame.
    await page.goto(new URL(link).pathname);
    await page.getByRole('heading', { level: 1, name: 'report.pdf' }).waitFor();
    await context.close();
  });
});

describe('private shares and managing shares', () => {
  it('shares a folder with a second account, which finds it under Shared with me and reads it without write controls', async () => {
    const owner = await createUser(session.server, { firstName: 'Ada' });
    const recipient = await createUser(session.server, { firstName: 'Grace', lastName: 'Hopper' });
    // Private shares show only to a verified address.
    await verifyViaOutbox(session.server, recipient.email);
    const team = await createFolder(session.server, owner.token, 'Team');
    const minutes = await createFolder(session.server, owner.token, 'Minutes', team.id);
    const plan = randomContent(5000);
    await createFile(session.server, owner.token, plan, { name: 'plan.bin', folderId: team.id });
    await createFile(session.server, owner.token, 'agenda', { name: 'monday.txt', type: 'text/plain', folderId: minutes.id });

    const { page, context } = await signedIn(owner.token);
    await page.goto('/dashboard');
    await tile(page, 'Team').hover();
    await tile(page, 'Team').getByRole('button', { name: 'Share folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share Folder' });
    await dialog.getByRole('radio', { name: /A specific person/ }).check();
    const email = dialog.getByLabel('E-mail address', { exact: true });
    // Blank is ignored; the address is trimmed; Enter submits.
    await email.fill('   ');
    expect(await dialog.getByRole('button', { name: 'Share' }).isDisabled()).toBe(true);
    await email.press('Enter');
    expect(await dialog.isVisible()).toBe(true);
    await email.fill(`  ${recipient.email}  `);
    await email.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await toast(page, `Folder shared with ${recipient.email}`).waitFor();

    // Sharing with yourself is refused with the server's reason, and the dialog closes.
    await tile(page, 'Team').hover();
    await tile(page, 'Team').getByRole('button', { name: 'Share folder' }).click();
    await dialog.getByRole('radio', { name: /A specific person/ }).check();
    await email.fill(owner.email);
    await dialog.getByRole('button', { name: 'Share' }).click();
    await dialog.waitFor({ state: 'detached' });
    await toast(page, 'You cannot share a folder with yourself.').waitFor();
    await context.close();

    const other = await signedIn(recipient.token);
    await other.page.goto('/dashboard');
    await other.page.getByRole('link', { name: 'Shared with me' }).click();
    await other.page.waitForURL(/\/shared$/);
    const shared = other.page.getByRole('list', { name: 'Folders shared with you' }).getByRole('listitem', { name: 'Team' });
    await shared.getByText('Shared by Ada').waitFor();
    await shared.getByRole('link', { name: 'Team' }).click();
    await other.page.waitForURL(/\/shared\?folder=/);
    const list = other.page.getByRole('list', { name: 'Folder contents' });
    await list.getByRole('listitem', { name: 'plan.bin' }).waitFor();
    // The path is a query of its own: it may arrive after the folder's contents.
    await crumbs(other.page).getByRole('link', { name: 'Team' }).waitFor();
    expect(await crumbs(other.page).getByRole('link').allInnerTexts()).toEqual(['Shared with me', 'Team']);
    expect(await other.page.getByRole('button', { name: /Upload|Delete|Rename|Move|Share/ }).count()).toBe(0);

    const saved = await download(other.page, () => list.getByRole('button', { name: 'Download plan.bin' }).click());
    expect(saved.bytes.equals(plan)).toBe(true);

    await list.getByRole('link', { name: /Minutes/ }).click();
    await list.getByRole('listitem', { name: 'monday.txt' }).waitFor();
    await crumbs(other.page).getByRole('link', { name: 'Minutes' }).waitFor();
    expect(await crumbs(other.page).getByRole('link').allInnerTexts()).toEqual(['Shared with me', 'Team', 'Minutes']);
    const zip = await download(other.page, () => other.page.getByRole('button', { name: 'Download folder' }).click());
    const entries = await readZip(zip.bytes);
    expect((entries.get('monday.txt') as Buffer).toString()).toBe('agenda');
    await crumbs(other.page).getByRole('link', { name: 'Shared with me' }).click();
    await other.page.getByRole('list', { name: 'Folders shared with you' }).waitFor();
    await other.context.close();
  });

  it('lists links and private shares in Manage shares; a revoked link shows not found to its visitor', async () => {
    const owner = await createUser(session.server, { firstName: 'Ada' });
    const recipient = await createUser(session.server);
    await createFolder(session.server, owner.token, 'Archive');
    const familyFolder = await createFolder(session.server, owner.token, 'Family');
    const { page, context } = await signedIn(owner.token);
    await page.goto('/dashboard');
    const link = await shareFolderPublicly(page, 'Archive');
    const privately = await fetch(`${session.server.url}/api/user/folders/${familyFolder.id}/share`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ shareType: 'private', email: recipient.email }),
    });
    expect(privately.status).toBe(200);

    const guest = await visitor();
    await guest.page.goto(link);
    await guest.page.getByRole('heading', { level: 1, name: 'Archive' }).waitFor();

    await page.getByRole('link', { name: 'Manage shares' }).click();
    await page.waitForURL(/\/shares$/);
    const rows = page.getByRole('list', { name: 'Your shares' });
    const archive = rows.getByRole('listitem', { name: 'Archive' });
    const family = rows.getByRole('listitem', { name: 'Family' });
    await archive.getByText('Link', { exact: true }).waitFor();
    await archive.getByText(/Expires /).waitFor();
    await family.getByText('Private', { exact: true }).waitFor();
    await family.getByText(new RegExp(`with ${recipient.email}`)).waitFor();
    expect(await family.getByRole('button', { name: /Copy link/ }).count()).toBe(0);

    await archive.getByRole('button', { name: 'Copy link to Archive' }).click();
    await toast(page, 'Link copied to clipboard').waitFor();
    expect(await clipboard(page)).toBe(link);

    await archive.getByRole('button', { name: 'Revoke share of Archive' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke the share of “Archive”?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await archive.getByRole('button', { name: 'Revoke share of Archive' }).click();
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await confirm.waitFor({ state: 'detached' });
    await archive.waitFor({ state: 'detached' });
    await toast(page, 'Share of “Archive” revoked').waitFor();
    await family.waitFor();

    await guest.page.reload();
    await guest.page.getByRole('heading', { level: 1, name: 'Link not found' }).waitFor();
    await guest.context.close();
    await context.close();
  });
});

describe('password links on a paid plan', () => {
  it('sets an expiry and a password in the share dialog; the visitor unlocks the link with it', async () => {
    const owner = await createUser(session.server, { firstName: 'Ada' });
    await subscribe(session.server, owner.token, 'PRO');
    const bytes = randomContent(4096);
    await createFile(session.server, owner.token, bytes, { name: 'secret.bin' });

    const { page, context } = await signedIn(owner.token);
    await page.goto('/dashboard');
    await tile(page, 'secret.bin').hover();
    await tile(page, 'secret.bin').getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Share File' });
    const expiry = dialog.getByLabel('Link expires');
    expect(await expiry.inputValue()).toBe('24');
    await expiry.selectOption({ label: 'After 7 days' });
    // A link password is as long as an account's: the dialog says so and stays open.
    await dialog.getByLabel('Password (optional)').fill('short');
    await dialog.getByLabel('Password (optional)').press('Enter');
    await dialog.getByRole('alert').filter({ hasText: 'Password must be at least 6 characters long' }).waitFor();
    await dialog.getByLabel('Password (optional)').fill('open sesame');
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await dialog.getByLabel('Password (optional)').press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await toast(page, 'Share link copied!').waitFor();
    const link = await clipboard(page);

    const guest = await visitor();
    await guest.page.goto(link);
    await guest.page.getByRole('heading', { name: 'This link is protected' }).waitFor();
    const password = guest.page.getByLabel('Password', { exact: true });
    await password.fill('nope');
    await password.press('Enter');
    await guest.page.getByRole('alert').filter({ hasText: 'Wrong password' }).waitFor();
    await password.fill('open sesame');
    await guest.page.getByRole('button', { name: 'Open' }).click();
    await guest.page.getByRole('heading', { level: 1, name: 'secret.bin' }).waitFor();
    const saved = await download(guest.page, () => guest.page.getByRole('link', { name: 'Download' }).click());
    expect(saved.bytes.equals(bytes)).toBe(true);
    await guest.context.close();

    // A folder link on this plan offers the same lifetimes, the longest first chosen: none is endless.
    await createFolder(session.server, owner.token, 'Vault');
    await page.reload();
    await tile(page, 'Vault').hover();
    await tile(page, 'Vault').getByRole('button', { name: 'Share folder' }).click();
    const folderDialog = page.getByRole('dialog', { name: 'Share Folder' });
    expect(await folderDialog.getByLabel('Link expires').inputValue()).toBe('720');
    expect(await folderDialog.getByLabel('Link expires').getByRole('option').allInnerTexts()).toEqual([
      'After 1 hour',
      'After 1 day',
      'After 3 days',
      'After 7 days',
      'After 30 days',
    ]);
    await folderDialog.getByRole('button', { name: 'Share' }).click();
    await toast(page, 'Public link copied to clipboard').waitFor();

    await page.goto('/shares');
    const vault = page.getByRole('list', { name: 'Your shares' }).getByRole('listitem', { name: 'Vault' });
    await vault.getByText(/Expires /).waitFor();
    const row = page.getByRole('list', { name: 'Your shares' }).getByRole('listitem', { name: 'secret.bin' });
    await row.getByText('Password', { exact: true }).waitFor();
    await context.close();
  });
});
