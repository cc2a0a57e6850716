import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TrashResponse } from '@cloudvault/contract/trash';
import { createUser } from '@cloudvault/test-support/accounts';
import { createFile, createFolder, listFiles, listFolders } from '@cloudvault/test-support/drive';
import { callApi, request } from '@cloudvault/test-support/running-server';
import { openPage } from './helpers/browser.ts';
import { dropFiles, randomContent, tile } from './helpers/drive.ts';
import { verifyViaOutbox } from './helpers/outbox.ts';
import { useE2eSession } from './helpers/session.ts';

/**
 * Issue 38's editors: a person given a folder as Editor opens it from Shared with me and works
 * in it with the file manager of their own files — an upload by the picker and one by dropping,
 * a rename, a new folder — and everything lands in the owner's folder and storage. A viewer of
 * the same folder gets no upload control, and the server refuses their writes.
 */
const session = useE2eSession('shared-folder-editor');

const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Folder path' });

async function storageUsed(token: string): Promise<number> {
  return (await callApi<{ storageInfo: { storageUsed: number } }>(session.server, token, 'GET', '/user/dashboard')).storageInfo.storageUsed;
}

/** Ada's folder Family with one file, shared with Grace as editor and with Lin as viewer. */
async function sharedFamily() {
  const owner = await createUser(session.server, { firstName: 'Ada', lastName: 'Lovelace' });
  const editor = await createUser(session.server, { firstName: 'Grace' });
  const viewer = await createUser(session.server, { firstName: 'Lin' });
  await Promise.all([verifyViaOutbox(session.server, editor.email), verifyViaOutbox(session.server, viewer.email)]);
  const family = await createFolder(session.server, owner.token, 'Family');
  await createFile(session.server, owner.token, 'a list', { name: 'shopping.txt', type: 'text/plain', folderId: family.id });
  for (const [person, role] of [
    [editor, 'editor'],
    [viewer, 'viewer'],
  ] as const) {
    await callApi(session.server, owner.token, 'POST', `/user/folders/${family.id}/share`, {
      shareType: 'private',
      email: person.email,
      role,
    });
  }
  return { owner, editor, viewer, family };
}

/** Opens Family from Shared with me, as its list shows it with the person's role. */
async function openFromSharedWithMe(page: Page, role: 'Editor' | 'Viewer') {
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Shared with me' }).click();
  const entry = page.getByRole('list', { name: 'Folders shared with you' }).getByRole('listitem', { name: 'Family' });
  await entry.getByText(new RegExp(`Shared by Ada.*${role}`)).waitFor();
  await entry.getByRole('link', { name: 'Family' }).click();
}

describe('an editor in a shared folder (issue 38)', () => {
  it('uploads by the picker and by dropping, renames, makes a folder, moves and deletes; all of it is the owner’s', async () => {
    const { owner, editor, family } = await sharedFamily();
    const usedBefore = await storageUsed(owner.token);
    const editorUsedBefore = await storageUsed(editor.token);
    const { page, context } = await openPage(session.browser, session.server.url, { token: editor.token });

    await openFromSharedWithMe(page, 'Editor');
    // The file manager itself, its crumbs starting from Shared with me.
    await tile(page, 'shopping.txt').waitFor();
    expect(await crumbs(page).getByRole('link').allInnerTexts()).toEqual(['Shared with me', 'Family']);
    await page.getByText(/Everything in it stays Ada/).waitFor();

    // An upload by the picker.
    const photo = randomContent(30_000);
    const onDisk = path.join(session.workDir, 'beach.bin');
    await writeFile(onDisk, photo);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const upload = page.getByRole('dialog', { name: 'Upload Files' });
    const chooser = page.waitForEvent('filechooser');
    await upload.getByRole('button', { name: 'Upload files' }).click();
    await (await chooser).setFiles(onDisk);
    await upload.waitFor({ state: 'detached' });
    await tile(page, 'beach.bin').waitFor();

    // An upload by dropping on the page.
    await dropFiles(page, [{ name: 'dropped.txt', content: 'dropped into the share' }]);
    await tile(page, 'dropped.txt').waitFor();

    // A rename from the item's menu.
    await tile(page, 'dropped.txt').hover();
    await tile(page, 'dropped.txt').getByRole('button', { name: 'More actions' }).click();
    const menu = page.getByRole('menu');
    // Sharing stays the owner's: no Share in the menu of a shared folder's item.
    expect(await menu.getByRole('menuitem', { name: /^Share/ }).count()).toBe(0);
    await menu.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename' });
    await rename.getByLabel('New name').fill('note.txt');
    await rename.getByLabel('New name').press('Enter');
    await page.getByText('Renamed to “note.txt”').first().waitFor();
    await tile(page, 'note.txt').waitFor();

    // A new folder.
    await page.getByRole('button', { name: 'New Folder' }).first().click();
    const create = page.getByRole('dialog', { name: 'Create New Folder' });
    await create.getByLabel('Folder name').fill('Recipes');
    await create.getByLabel('Folder name').press('Enter');
    await create.waitFor({ state: 'detached' });
    await tile(page, 'Recipes').waitFor();

    // A move stays inside the share: its picker starts at the shared folder and goes no higher.
    await tile(page, 'note.txt').hover();
    await tile(page, 'note.txt').getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Move' }).click();
    const picker = page.getByRole('dialog', { name: 'Move “note.txt”' });
    await picker.getByText('Family', { exact: true }).waitFor();
    expect(await picker.getByRole('button', { name: 'Up one level' }).count()).toBe(0);
    await picker.getByRole('button', { name: 'Open Recipes' }).click();
    await picker.getByText('Family / Recipes', { exact: true }).waitFor();
    expect(await picker.getByRole('button', { name: 'Up one level' }).count()).toBe(1);
    await picker.getByRole('button', { name: 'Move here' }).click();
    await page.getByText('Moved to Recipes').first().waitFor();
    await tile(page, 'note.txt').waitFor({ state: 'detached' });

    // The owner has all of it in their own folder, and their storage counts the uploads; the editor's does not.
    const files = await listFiles(session.server, owner.token, family.id);
    expect(files.map((file) => file.originalName).sort()).toEqual(['beach.bin', 'shopping.txt']);
    const folders = await listFolders(session.server, owner.token, family.id);
    expect(folders.map((folder) => folder.name)).toEqual(['Recipes']);
    expect((await listFiles(session.server, owner.token, folders[0]?.id)).map((file) => file.originalName)).toEqual(['note.txt']);
    const added = photo.length + 'dropped into the share'.length;
    await expect.poll(() => storageUsed(owner.token)).toBe(usedBefore + added);
    expect(await storageUsed(editor.token)).toBe(editorUsedBefore);

    // …and sees it in the file manager of their own drive.
    const own = await openPage(session.browser, session.server.url, { token: owner.token });
    await own.page.goto(`/dashboard?folder=${family.id}`);
    await tile(own.page, 'beach.bin').waitFor();
    await tile(own.page, 'Recipes').waitFor();
    await own.context.close();

    // A delete from the selection bar goes to the owner's Trash, saying who deleted it.
    await tile(page, 'beach.bin').click();
    await page.getByRole('toolbar', { name: 'Selected items' }).getByRole('button', { name: 'Delete' }).click();
    const confirmDelete = page.getByRole('dialog', { name: 'Delete File' });
    await confirmDelete.getByText('“beach.bin” will be moved to the Trash of the folder’s owner, who alone can restore it.').waitFor();
    await confirmDelete.getByRole('button', { name: 'Delete File' }).click();
    await tile(page, 'beach.bin').waitFor({ state: 'detached' });
    const trash = await callApi<TrashResponse>(session.server, owner.token, 'GET', '/trash');
    expect(trash.files.map((file) => [file.originalName, file.deletedBy?.firstName])).toEqual([['beach.bin', 'Grace']]);
    expect((await callApi<TrashResponse>(session.server, editor.token, 'GET', '/trash')).files).toEqual([]);
    await context.close();
  });

  it('gives a viewer the read-only view, with no upload, and the server refuses their writes; the viewer leaves', async () => {
    const { viewer, family } = await sharedFamily();
    const { page, context } = await openPage(session.browser, session.server.url, { token: viewer.token });

    await openFromSharedWithMe(page, 'Viewer');
    const list = page.getByRole('list', { name: 'Folder contents' });
    await list.getByRole('listitem', { name: 'shopping.txt' }).waitFor();
    expect(await page.getByRole('button', { name: /Upload|New Folder|Rename|Delete|Move|Share/ }).count()).toBe(0);
    // Nothing dropped on the page is sent.
    await dropFiles(page, [{ name: 'sneaky.txt', content: 'not allowed' }]);
    expect(await page.getByText('sneaky.txt').count()).toBe(0);

    const refused = await request<{ code: string }>(session.server, 'POST', '/api/user/folders', {
      token: viewer.token,
      body: { name: 'Mine now', parentId: family.id },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('READ_ONLY_SHARE');

    // Leaving, after a confirmation: gone from Shared with me, and the folder is no longer theirs to read.
    await crumbs(page).getByRole('link', { name: 'Shared with me' }).click();
    const entry = page.getByRole('list', { name: 'Folders shared with you' }).getByRole('listitem', { name: 'Family' });
    await entry.getByRole('button', { name: 'Leave Family' }).click();
    const confirm = page.getByRole('dialog', { name: 'Leave “Family”?' });
    await confirm.getByText(/Ada keeps it/).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await entry.getByRole('button', { name: 'Leave Family' }).click();
    await confirm.getByRole('button', { name: 'Leave', exact: true }).click();
    await page.getByText('You left “Family”').first().waitFor();
    await page.getByText('Nothing has been shared with you yet').waitFor();
    expect((await request(session.server, 'GET', `/api/user/folders/${family.id}/path`, { token: viewer.token })).status).toBe(404);
    await context.close();
  });
});
