import type { TFunction } from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import type { FileItem } from '@cloudvault/contract/files';
import { fileItem, folderItem } from '../items';
import { itemMenuEntries } from './item-menu';

// The keys stand for the texts: what matters here is which entries there are, in which order.
const t = ((key: string) => key) as unknown as TFunction;
const file = fileItem({ id: 'f1', originalName: 'notes.txt', folderId: null } as unknown as FileItem);
const folder = folderItem({ id: 'd1', name: 'Photos', parentId: null, createdAt: '', updatedAt: '' });
const history = [{ id: 'history', label: 'versions.menu' }];

const ids = (entries: ReturnType<typeof itemMenuEntries>) => entries.map((entry) => entry.id);

describe('itemMenuEntries', () => {
  it('gives one item every action, its history before Delete, and Open first in the context menu', () => {
    expect(ids(itemMenuEntries(file, { t, count: 1, onAction: vi.fn(), historyItems: history }))).toEqual([
      'download',
      'share',
      'rename',
      'move',
      'copy',
      'history',
      'delete',
    ]);
    expect(ids(itemMenuEntries(folder, { t, count: 1, onAction: vi.fn(), historyItems: [], withOpen: true }))[0]).toBe('open');
  });

  it('leaves out what needs one item when it acts on several, and says how many Delete takes', () => {
    const entries = itemMenuEntries(file, { t, count: 3, onAction: vi.fn(), historyItems: history, withOpen: true });
    expect(ids(entries)).toEqual(['download', 'move', 'copy', 'delete']);
    expect(entries.at(-1)?.label).toBe('dashboard.contextMenu.deleteMany');
  });

  it('offers Star or Remove star where starring exists, and hands the action and the item to onAction', () => {
    const onAction = vi.fn();
    const unstarred = itemMenuEntries(folder, { t, count: 1, onAction, historyItems: [], starred: false });
    expect(ids(unstarred)).toContain('star');
    expect(ids(itemMenuEntries(folder, { t, count: 1, onAction, historyItems: [], starred: true }))).toContain('unstar');
    expect(ids(itemMenuEntries(folder, { t, count: 1, onAction, historyItems: [] }))).not.toContain('star');
    unstarred.find((entry) => entry.id === 'star')?.onSelect?.();
    expect(onAction).toHaveBeenCalledWith('star', folder);
  });

  it('leaves Share out inside a folder shared with the user, and keeps the rest', () => {
    expect(ids(itemMenuEntries(file, { t, count: 1, onAction: vi.fn(), historyItems: [], canShare: false }))).toEqual([
      'download',
      'rename',
      'move',
      'copy',
      'delete',
    ]);
  });

  it("offers a file's copy on the device, kept or not, before its history, and only for one file", () => {
    const onAction = vi.fn();
    const notKept = itemMenuEntries(file, { t, count: 1, onAction, historyItems: history, offline: 'not-kept' });
    expect(ids(notKept)).toEqual(['download', 'share', 'rename', 'move', 'copy', 'keep-offline', 'history', 'delete']);
    expect(ids(itemMenuEntries(file, { t, count: 1, onAction, historyItems: [], offline: 'kept' }))).toContain('remove-offline');
    expect(ids(itemMenuEntries(file, { t, count: 2, onAction, historyItems: [], offline: 'kept' }))).not.toContain('remove-offline');
    notKept.find((entry) => entry.id === 'keep-offline')?.onSelect?.();
    expect(onAction).toHaveBeenCalledWith('keep-offline', file);
  });
});
