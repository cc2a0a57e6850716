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

const click = { ctrlKey: false, metaKey: false, shiftKey: false } as MouseEvent;
const ctrlClick = { ctrlKey: true, metaKey: false, shiftKey: false } as MouseEvent;
const shiftClick = { ctrlKey: false, metaKey: false, shiftKey: true } as MouseEvent;

/** The clicks over a real selection, with the opening of folders and files faked. */
function setup(narrow: boolean, selecting = false) {
  const open = vi.fn<(item: DriveItem) => void>();
  const openFolder = vi.fn<(folderId: string) => void>();
  const order = items.map((item) => item.key);
  const { result } = renderHook(() => {
    const selection = useItemSelection(items, null);
    return { selection, ...useItemClicks({ narrow, selection, order, selecting, open, openFolder }) };
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
  it('a click selects only the item, and a click on the one file selected deselects it', () => {
    const { result, selected } = setup(false);
    act(() => result.current.onItemClick(notes, click));
    act(() => result.current.onItemClick(plan, click));
    expect(selected()).toEqual([plan.key]);
    act(() => result.current.onItemClick(plan, click));
    expect(selected()).toEqual([]);
    act(() => result.current.onItemClick(photos, click));
    expect(selected()).toEqual([photos.key]);
    expect(result.current.selection.activeKey).toBe(photos.key);
  });

  it('Shift-click selects the range from the last item clicked, either way, and Ctrl+Shift adds it', () => {
    const { result, selected } = setup(false);
    act(() => result.current.onItemClick(photos, click));
    act(() => result.current.onItemClick(plan, shiftClick));
    expect(selected()).toEqual([photos.key, notes.key, plan.key]);
    // The anchor stays where it was: a second Shift-click makes another range from it.
    act(() => result.current.onItemClick(notes, shiftClick));
    expect(selected()).toEqual([photos.key, notes.key]);
    act(() => result.current.onItemClick(plan, ctrlClick));
    act(() => result.current.onItemClick(plan, click));
    act(() => result.current.onItemClick(notes, { ...shiftClick, ctrlKey: true } as MouseEvent));
    expect(selected().sort()).toEqual([notes.key, plan.key].sort());
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

  it('after a long press started selecting, taps toggle and open nothing', () => {
    const { result, open, openFolder, selected } = setup(true, true);
    act(() => result.current.onItemClick(notes, click));
    act(() => result.current.onItemClick(photos, click));
    now = 100;
    act(() => result.current.onItemClick(photos, click));
    expect(selected()).toEqual([notes.key]);
    expect(open).not.toHaveBeenCalled();
    expect(openFolder).not.toHaveBeenCalled();
  });

  it('a tap on a file opens it in the viewer', () => {
    const { result, open, selected } = setup(true);
    act(() => result.current.onItemClick(notes, click));
    expect(open).toHaveBeenCalledWith(notes);
    expect(selected()).toEqual([]);
  });
});
