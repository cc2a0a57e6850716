import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder, listFiles, listFolders } from '@cloudvault/test-support/drive';
import { openPage } from './helpers/browser.ts';
import { tile, waitForFocusedTile } from './helpers/drive.ts';
import { useE2eSession } from './helpers/session.ts';

const session = useE2eSession('dashboard');

const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Folder path' });
const folderParam = (page: Page) => new URL(page.url()).searchParams.get('folder');

async function signedIn(overrides: Record<string, string> = {}) {
  const account = await createUser(session.server, overrides);
  const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });
  return { account, page, context };
}

async function createFolderInUi(page: Page, name: string) {
  await page.getByRole('button', { name: 'New Folder' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create New Folder' });
  await dialog.getByLabel('Folder name').fill(name);
  await dialog.getByLabel('Folder name').press('Enter');
  await dialog.waitFor({ state: 'detached' });
  await tile(page, name).waitFor();
}

describe('dashboard: folders and navigation', () => {
  it('creates nested folders and moves through them by tile, breadcrumb, back and forward, and reload', async () => {
    const { page, context } = await signedIn({ firstName: 'Grace' });
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: /Good (morning|afternoon|evening), Grace/ }).waitFor();
    await page.getByText('Your cloud is empty').waitFor();
    await page.getByText('0 items').waitFor();

    // Create New Folder: Create is disabled while blank; Enter on a blank name explains why.
    await page.getByRole('button', { name: 'New Folder' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create New Folder' });
    expect(await dialog.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Folder name').fill('   ');
    expect(await dialog.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Folder name').press('Enter');
    await dialog.getByText('Please enter a folder name').waitFor();
    await dialog.getByLabel('Folder name').fill('Projects');
    expect(await dialog.getByRole('button', { name: 'Create' }).isDisabled()).toBe(false);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Folder created').first().waitFor();
    await tile(page, 'Projects').waitFor();
    await page.getByText('1 item', { exact: true }).waitFor();

    // A single click selects; a double click opens.
    await tile(page, 'Projects').click();
    expect(await tile(page, 'Projects').getAttribute('aria-selected')).toBe('true');
    expect(folderParam(page)).toBeNull();
    await tile(page, 'Projects').dblclick();
    await page.waitForURL(/\?folder=/);
    const projectsId = folderParam(page);
    await page.getByText('This folder is empty').waitFor();
    await crumbs(page).getByRole('link', { name: 'Projects' }).waitFor();

    await createFolderInUi(page, 'Drafts');
    await tile(page, 'Drafts').dblclick();
    await page.waitForURL((url) => url.searchParams.get('folder') !== projectsId);
    const draftsId = folderParam(page);
    await createFolderInUi(page, 'Final');
    expect(await crumbs(page).getByRole('link').allInnerTexts()).toEqual(['My Files', 'Projects', 'Drafts']);
    expect(await crumbs(page).getByRole('link', { name: 'Drafts' }).getAttribute('aria-current')).toBe('page');

    // Breadcrumb back to Projects.
    await crumbs(page).getByRole('link', { name: 'Projects' }).click();
    await page.waitForURL((url) => url.searchParams.get('folder') === projectsId);
    await tile(page, 'Drafts').waitFor();

    // Back and forward follow the folders; a reload stays in the folder.
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('folder') === draftsId);
    await tile(page, 'Final').waitFor();
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('folder') === projectsId);
    await tile(page, 'Drafts').waitFor();
    await page.goForward();
    await page.waitForURL((url) => url.searchParams.get('folder') === draftsId);
    await page.reload();
    await tile(page, 'Final').waitFor();
    expect(await crumbs(page).getByRole('link').allInnerTexts()).toEqual(['My Files', 'Projects', 'Drafts']);

    await crumbs(page).getByRole('link', { name: 'My Files' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard' && !url.searchParams.has('folder'));
    await tile(page, 'Projects').waitFor();
    await context.close();
  });

  it('shows the folder name in full on hover while the crumb stays at most 200 px wide', async () => {
    const { account, page, context } = await signedIn();
    const longName = 'A folder with a remarkably long name that will never fit in one breadcrumb';
    const folder = await createFolder(session.server, account.token, longName);
    await page.goto(`/dashboard?folder=${folder.id}`);
    const crumb = crumbs(page).getByRole('link', { name: longName });
    await crumb.waitFor();
    expect(await crumb.getAttribute('title')).toBe(longName);
    const box = await crumb.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(200);
    await context.close();
  });

  it('opens folders and files with the keyboard, and asks before deleting with the Delete key', async () => {
    const { account, page, context } = await signedIn();
    const alpha = await createFolder(session.server, account.token, 'Alpha');
    await createFolder(session.server, account.token, 'Beta');
    await createFile(session.server, account.token, 'g', { name: 'gamma.txt' });
    await page.goto('/dashboard');
    await tile(page, 'Alpha').click();
    await page.keyboard.press('ArrowRight');
    expect(await tile(page, 'Beta').getAttribute('aria-selected')).toBe('true');
    expect(await tile(page, 'Alpha').getAttribute('aria-selected')).toBe('false');
    await page.keyboard.press('ArrowRight');
    expect(await tile(page, 'gamma.txt').getAttribute('aria-selected')).toBe('true');

    // Delete asks first; Escape closes the dialog and focus returns to the tile.
    await page.keyboard.press('Delete');
    const dialog = page.getByRole('dialog', { name: 'Delete File' });
    await dialog.waitFor();
    await dialog.getByText('“gamma.txt” will be moved to Trash').waitFor();
    // Focus stays inside the dialog while tabbing.
    for (let i = 0; i < 5; i += 1) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await waitForFocusedTile(page, 'gamma.txt');

    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('folder') === alpha.id);
    await page.getByText('This folder is empty').waitFor();
    await context.close();
  });
});

describe('dashboard: loading and failure', () => {
  it("shows 'Loading your files...', then 'Failed to load dashboard data' with a way to try again", async () => {
    const { account, page, context } = await signedIn();
    await createFile(session.server, account.token, 'still here', { name: 'survivor.txt' });
    let failing = true;
    // The failing answer is held until the loading state has been seen, however long that takes.
    let loadingSeen!: () => void;
    const seen = new Promise<void>((resolve) => (loadingSeen = resolve));
    await page.route(/\/api\/files(\?|$)/, async (route) => {
      if (!failing) return route.continue();
      await seen;
      return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'Service unavailable' }) });
    });
    await page.goto('/dashboard');
    await page.getByText('Loading your files...').waitFor();
    loadingSeen();
    await page.getByRole('alert').filter({ hasText: 'Failed to load dashboard data' }).waitFor({ timeout: 15_000 });
    await page.getByText('Failed to load dashboard data').first().waitFor();

    failing = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await tile(page, 'survivor.txt').waitFor();
    await context.close();
  });

  it('says so when the folder in the address does not exist', async () => {
    const { page, context } = await signedIn();
    await page.goto('/dashboard?folder=nosuchfolder');
    await page.getByText('This folder does not exist or was moved to Trash.').waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: 'Go to My Files' }).click();
    await page.getByText('Your cloud is empty').waitFor();
    await context.close();
  });
});

describe('dashboard: views, search, rename, move', () => {
  it('switches between grid and list and remembers the choice', async () => {
    const { account, page, context } = await signedIn();
    await createFolder(session.server, account.token, 'Music');
    await createFile(session.server, account.token, 'la la la', { name: 'song.mp3', type: 'audio/mpeg' });
    await page.goto('/dashboard');
    await tile(page, 'song.mp3').waitFor();
    expect(await page.getByRole('grid').getAttribute('data-view')).toBe('grid');
    expect(await page.getByRole('button', { name: 'Grid view' }).getAttribute('aria-pressed')).toBe('true');

    await page.getByRole('button', { name: 'List view' }).click();
    for (const column of ['Name', 'Size', 'Modified', 'Actions']) await page.getByRole('columnheader', { name: column }).waitFor();
    expect(await page.getByRole('grid').getAttribute('data-view')).toBe('list');
    await tile(page, 'song.mp3').getByText('8 Bytes', { exact: true }).waitFor();

    await page.reload();
    await tile(page, 'Music').waitFor();
    expect(await page.getByRole('grid').getAttribute('data-view')).toBe('list');
    expect(await page.getByRole('button', { name: 'List view' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Grid view' }).click();
    expect(await page.getByRole('grid').getAttribute('data-view')).toBe('grid');
    await context.close();
  });

  it('filters the folder by name and searches the whole drive, showing where each hit lives', async () => {
    const { account, page, context } = await signedIn();
    const reports = await createFolder(session.server, account.token, 'Reports');
    const yearly = await createFolder(session.server, account.token, '2024', reports.id);
    await createFile(session.server, account.token, 'pdf', { name: 'Annual-Report.pdf', type: 'application/pdf', folderId: yearly.id });
    await createFile(session.server, account.token, 'draft', { name: 'report-draft.txt' });
    await createFile(session.server, account.token, 'notes', { name: 'notes.txt' });
    await page.goto('/dashboard');
    await tile(page, 'notes.txt').waitFor();

    await page.getByRole('searchbox', { name: 'Search files' }).fill('REPORT');
    // The open folder is filtered at once, case-insensitively.
    await tile(page, 'Reports').waitFor();
    await tile(page, 'report-draft.txt').waitFor();
    await tile(page, 'notes.txt').waitFor({ state: 'detached' });
    // The drive-wide search finds the nested file and says where it is.
    const results = page.getByRole('region', { name: 'In your whole drive' });
    const hit = results.getByRole('listitem', { name: 'Annual-Report.pdf' });
    await hit.waitFor();
    await hit.getByText('in My Files / Reports / 2024').waitFor();
    expect(await results.getByRole('listitem', { name: 'report-draft.txt' }).count()).toBe(0);

    await hit.getByRole('button', { name: 'Show in folder' }).click();
    await page.waitForURL((url) => url.searchParams.get('folder') === yearly.id);
    expect(await tile(page, 'Annual-Report.pdf').getAttribute('aria-selected')).toBe('true');

    // Nothing anywhere.
    await page.getByRole('searchbox', { name: 'Search files' }).fill('zebra');
    await page.getByText('Nothing in this folder matches “zebra”.').waitFor();
    await page.getByText('No files in your drive match “zebra”.').waitFor();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await tile(page, 'Annual-Report.pdf').waitFor();
    await context.close();
  });

  it('renames a file and a folder from the item menu', async () => {
    const { account, page, context } = await signedIn();
    await createFolder(session.server, account.token, 'Holiday');
    await createFile(session.server, account.token, 'jpg', { name: 'IMG_0001.jpg', type: 'image/jpeg' });
    await createFile(session.server, account.token, 'jpg', { name: 'taken.jpg', type: 'image/jpeg' });
    await page.goto('/dashboard');

    await tile(page, 'IMG_0001.jpg').hover();
    await tile(page, 'IMG_0001.jpg').getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    let dialog = page.getByRole('dialog', { name: 'Rename' });
    await dialog.getByLabel('New name').fill('beach.jpg');
    await dialog.getByLabel('New name').press('Enter');
    await page.getByText('Renamed to “beach.jpg”').first().waitFor();
    await tile(page, 'beach.jpg').waitFor();
    await tile(page, 'IMG_0001.jpg').waitFor({ state: 'detached' });

    // A taken name: the server's message, and the dialog stays open.
    await tile(page, 'beach.jpg').hover();
    await tile(page, 'beach.jpg').getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    dialog = page.getByRole('dialog', { name: 'Rename' });
    await dialog.getByLabel('New name').fill('TAKEN.jpg');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await dialog.getByText(/already exists/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await tile(page, 'Holiday').hover();
    await tile(page, 'Holiday').getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    dialog = page.getByRole('dialog', { name: 'Rename' });
    await dialog.getByLabel('New name').fill('Holidays 2025');
    await dialog.getByLabel('New name').press('Enter');
    await tile(page, 'Holidays 2025').waitFor();
    expect((await listFolders(session.server, account.token)).map((folder) => folder.name)).toEqual(['Holidays 2025']);
    await context.close();
  });

  it('moves items by dragging them onto a folder tile and onto a breadcrumb, and from the Move dialog', async () => {
    const { account, page, context } = await signedIn();
    const archive = await createFolder(session.server, account.token, 'Archive');
    const inner = await createFolder(session.server, account.token, 'Inner', archive.id);
    await createFile(session.server, account.token, 'old', { name: 'old.txt' });
    await createFile(session.server, account.token, 'older', { name: 'older.txt' });
    await page.goto('/dashboard');

    await tile(page, 'old.txt').dragTo(tile(page, 'Archive'));
    await page.getByText('Moved to Archive').first().waitFor();
    await tile(page, 'old.txt').waitFor({ state: 'detached' });
    expect((await listFiles(session.server, account.token, archive.id)).map((file) => file.originalName)).toEqual(['old.txt']);

    // Into Archive, then the file goes back home by a drop on the 'My Files' crumb.
    await tile(page, 'Archive').dblclick();
    await tile(page, 'old.txt').waitFor();
    await tile(page, 'old.txt').dragTo(crumbs(page).getByRole('link', { name: 'My Files' }));
    await page.getByText('Moved to My Files').first().waitFor();
    await tile(page, 'old.txt').waitFor({ state: 'detached' });

    // The Move dialog: browse into Archive / Inner and move there.
    await crumbs(page).getByRole('link', { name: 'My Files' }).click();
    await tile(page, 'older.txt').hover();
    await tile(page, 'older.txt').getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Move to…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move “older.txt”' });
    await dialog.getByRole('button', { name: 'Open Archive' }).click();
    await dialog.getByRole('button', { name: 'Open Inner' }).click();
    await dialog.getByText('My Files / Archive / Inner').waitFor();
    await dialog.getByRole('button', { name: 'Move here' }).click();
    await page.getByText('Moved to Inner').first().waitFor();
    expect((await listFiles(session.server, account.token, inner.id)).map((file) => file.originalName)).toEqual(['older.txt']);
    await context.close();
  });
});

describe('dashboard: delete, Trash, restore', () => {
  it('deletes a file and a folder, finds them in Trash and restores them', async () => {
    const { account, page, context } = await signedIn();
    const old = await createFolder(session.server, account.token, 'Old stuff');
    await createFile(session.server, account.token, 'inside', { name: 'inside.txt', folderId: old.id });
    await createFile(session.server, account.token, 'Dear reader', { name: 'letter.txt' });
    const draft = await createFile(session.server, account.token, 'scrap this', { name: 'draft.txt' });
    await fetch(`${session.server.url}/api/files/${draft.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${account.token}` } });
    await page.goto('/dashboard');

    await tile(page, 'letter.txt').hover();
    await tile(page, 'letter.txt').getByRole('button', { name: 'Delete', exact: true }).click();
    let dialog = page.getByRole('dialog', { name: 'Delete File' });
    await dialog.getByRole('button', { name: 'Delete File' }).click();
    await page.getByText('File deleted').first().waitFor();
    await tile(page, 'letter.txt').waitFor({ state: 'detached' });

    await tile(page, 'Old stuff').hover();
    await tile(page, 'Old stuff').getByRole('button', { name: 'Delete folder' }).click();
    dialog = page.getByRole('dialog', { name: 'Delete Folder' });
    await dialog.getByText('“Old stuff” and everything in it will be moved to Trash').waitFor();
    await dialog.getByRole('button', { name: 'Delete Folder' }).click();
    await page.getByText('Folder deleted successfully').first().waitFor();
    await page.getByText('Your cloud is empty').waitFor();

    await page.getByRole('link', { name: 'Trash' }).click();
    await page.waitForURL('**/trash');
    await page.getByRole('heading', { level: 1, name: 'Trash' }).waitFor();
    const list = page.getByRole('list', { name: 'Deleted items' });
    await list
      .getByRole('listitem', { name: 'Old stuff' })
      .getByText(/Deleted /)
      .waitFor();
    await list.getByRole('listitem', { name: 'letter.txt' }).waitFor();
    // Auto-delete is off by default: no purge date.
    expect(await page.getByText(/Deleted forever on/).count()).toBe(0);

    await list.getByRole('listitem', { name: 'Old stuff' }).getByRole('button', { name: 'Restore Old stuff' }).click();
    await page.getByText('Restored “Old stuff”').first().waitFor();
    await list.getByRole('listitem', { name: 'Old stuff' }).waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'My Files' }).click();
    await tile(page, 'Old stuff').dblclick();
    await tile(page, 'inside.txt').waitFor();

    // One item can go for good on its own, after a confirmation.
    await page.goto('/trash');
    await list.getByRole('listitem', { name: 'draft.txt' }).getByRole('button', { name: 'Delete forever draft.txt' }).click();
    dialog = page.getByRole('dialog', { name: 'Delete “draft.txt” forever?' });
    await dialog.getByRole('button', { name: 'Delete forever' }).click();
    await page.getByText('Deleted “draft.txt” forever').first().waitFor();
    await list.getByRole('listitem', { name: 'draft.txt' }).waitFor({ state: 'detached' });

    // Empty Trash asks first, then the file is gone for good.
    await page.getByRole('button', { name: 'Empty Trash' }).click();
    dialog = page.getByRole('dialog', { name: 'Empty Trash?' });
    await dialog.getByText('1 item will be deleted forever').waitFor();
    await dialog.getByRole('button', { name: 'Delete forever' }).click();
    await page.getByText('Trash emptied').first().waitFor();
    await page.getByText('Trash is empty').waitFor();
    const trash = await (await fetch(`${session.server.url}/api/trash`, { headers: { authorization: `Bearer ${account.token}` } })).json();
    expect(trash).toEqual({ folders: [], files: [] });
    await context.close();
  });

  it('shows when a deleted item will be purged while auto-delete is on', async () => {
    const { account, page, context } = await signedIn();
    const headers = { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' };
    const { settings } = await (await fetch(`${session.server.url}/api/user/settings`, { headers })).json();
    settings.storage = { ...settings.storage, autoDelete: true, deleteAfterDays: 7 };
    expect(
      (await fetch(`${session.server.url}/api/user/settings`, { method: 'PUT', headers, body: JSON.stringify(settings) })).status,
    ).toBe(200);
    const file = await createFile(session.server, account.token, 'bye', { name: 'temporary.txt' });
    const deleted = await fetch(`${session.server.url}/api/files/${file.id}`, {
      method: 'DELETE',
      headers: { authorization: headers.authorization },
    });
    expect(deleted.status).toBe(200);

    await page.goto('/trash');
    const row = page.getByRole('list', { name: 'Deleted items' }).getByRole('listitem', { name: 'temporary.txt' });
    const purgeDate = new Date(Date.now() + 7 * 24 * 3600 * 1000).toLocaleDateString('en', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
    });
    await row.getByText(`Deleted forever on ${purgeDate}`).waitFor();
    await context.close();
  });
});
