// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Folder } from '@cloudvault/contract/folders';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { folderItem } from '../items';
import { FolderPickerModal, type PickerVerb } from './folder-picker-modal';

const folder = (id: string, name: string, parentId: string | null): Folder => ({
  id,
  name,
  parentId,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

const docs = folder('docs', 'Docs', null);
const made = folder('made', 'Drafts', 'docs');
const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if (init?.method === 'POST') return Response.json({ folder: made }, { status: 201 });
    if (url.pathname === '/api/user/folders/docs/path') return Response.json({ path: [docs] });
    if (url.pathname === '/api/user/folders/made/path') return Response.json({ path: [docs, made] });
    if (url.pathname === '/api/user/folders') return Response.json({ folders: url.searchParams.get('parentId') ? [] : [docs] });
    return Response.json({ error: 'Not found' }, { status: 404 });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPicker(verb: PickerVerb) {
  const onPick = vi.fn();
  const item = folderItem(folder('a', 'Photos', 'docs'));
  renderWithProviders(<FolderPickerModal verb={verb} items={[item]} fromFolderId="docs" onClose={() => {}} onPick={onPick} />);
  return { onPick, item };
}

describe('FolderPickerModal', () => {
  it('moves nowhere it already is: Move here waits for another folder', async () => {
    const { onPick, item } = renderPicker('move');
    const dialog = await screen.findByRole('dialog', { name: 'Move “Photos”' });
    expect(dialog).toBeTruthy();
    await screen.findByText('My Files / Docs');
    expect(screen.getByRole('button', { name: 'Move here' }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Up one level' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Move here' }));
    expect(onPick).toHaveBeenCalledWith([item], null, 'My Files');
  });

  it('copies beside the original, and into a folder made in the dialog', async () => {
    const { onPick, item } = renderPicker('copy');
    await screen.findByRole('dialog', { name: 'Copy “Photos”' });
    await screen.findByText('My Files / Docs');
    await userEvent.click(screen.getByRole('button', { name: 'Copy here' }));
    expect(onPick).toHaveBeenLastCalledWith([item], 'docs', 'Docs');

    await userEvent.click(screen.getByRole('button', { name: 'New folder' }));
    await userEvent.type(screen.getByLabelText('New folder name'), 'Drafts{Enter}');
    await screen.findByText('My Files / Docs / Drafts');
    await userEvent.click(screen.getByRole('button', { name: 'Copy here' }));
    await waitFor(() => expect(onPick).toHaveBeenLastCalledWith([item], 'made', 'Drafts'));
  });
});
