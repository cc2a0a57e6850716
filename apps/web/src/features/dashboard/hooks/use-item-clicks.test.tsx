// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import type { MouseEvent } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FileItem } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { fileItem, folderItem, type DriveItem } from '../items';
import { useItemClicks } from './use-item-clicks';
import { useItemSelection } from './use-item-selection';

const folder = (id: string): Folder => ({
  id,
  name: id,
  parentId: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});
const file = (id: string) => ({ id, originalName: id, folderId: null }) as unknown as FileItem;
const photos = folderItem(folder('photos'));
const notes = fileItem(file('notes.txt'));
const plan = fileItem(file('plan.pdf'));
const items: DriveItem[] = [photos, notes, plan];

const click = { ctrlKey: false, metaKey: false } as MouseEvent;
const ctrlClick = { ctrlKey: true, metaKey: false } as MouseEvent;

/** The clicks over a real selection, with the opening of folders and files faked. */
function setup(narrow: boolean) {
  const open = vi.fn<(item: DriveItem) => void>();
  const openFolder = vi.fn<(folderId: string) => void>();
  const { result } = renderHook(() => {
    const selection = useItemSelection(items, null);
    return { selection, ...useItemClicks({ narrow, selection, open, openFolder }) };
  });
  const selected = () => [...result.current.selection.selection];
  return { result, open, openFolder, selected };
}

/** The tap tracker's clock, in ms. */
let now = 0;
beforeEach(() => {
  now = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('clicks on items with a mouse', () => {
  it('a click on a file toggles it, a click on a folder selects only the folder', () => {
    const { result, selected } = setup(false);
    act(() => result.current.onItemClick(notes, click));
    act(() => result.current.onItemClick(plan, click));
    expect(selected()).toEqual([notes.key, plan.key]);
    act(() => result.current.onItemClick(notes, click));
    expect(selected()).toEqual([plan.key]);
    act(() => result.current.onItemClick(photos, click));
    expect(selected()).toEqual([photos.key]);
    expect(result.current.selection.activeKey).toBe(photos.key);
  });

  it('Ctrl-click toggles a folder too, keeping the rest', () => {
    const { result, selected } = setup(false);
    act(() => result.current.onItemClick(notes, click));
    act(() => result.current.onItemClick(photos, ctrlClick));
    expect(selected()).toEqual([notes.key, photos.key]);
  });

  it('a double click opens folders and files', () => {
    const { result, open } = setup(false);
    act(() => result.current.onItemDoubleClick(photos));
    act(() => result.current.onItemDoubleClick(notes));
    expect(open.mock.calls).toEqual([[photos], [notes]]);
  });
});

describe('taps on items on touch or a narrow screen', () => {
  it('a tap selects a folder and a second tap within 300 ms opens it; a double click does not', () => {
    const { result, openFolder, open, selected } = setup(true);
    act(() => result.current.onItemClick(photos, click));
    expect(selected()).toEqual([photos.key]);
    now = 250;
    act(() => result.current.onItemClick(photos, click));
    expect(openFolder).toHaveBeenCalledWith('photos');
    act(() => result.current.onItemDoubleClick(photos));
    expect(open).not.toHaveBeenCalled();
  });

  it('a second tap after 300 ms selects again', () => {
    const { result, openFolder } = setup(true);
    act(() => result.current.onItemClick(photos, click));
    now = 400;
    act(() => result.current.onItemClick(photos, click));
    expect(openFolder).not.toHaveBeenCalled();
  });

  it('a tap on a file opens it in the viewer', () => {
    const { result, open, selected } = setup(true);
    act(() => result.current.onItemClick(notes, click));
    expect(open).toHaveBeenCalledWith(notes);
    expect(selected()).toEqual([]);
  });
});
