import { describe, expect, it } from 'vitest';
import { pageKeyCommand, shortcutLines, type KeyPress } from './page-shortcuts';

const press = (key: string, modifiers: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...modifiers,
});

describe('pageKeyCommand', () => {
  it('reads Ctrl or Cmd with A, C, X and V, whatever the letter case', () => {
    expect(pageKeyCommand(press('a', { ctrlKey: true }), false)).toBe('select-all');
    expect(pageKeyCommand(press('A', { metaKey: true }), false)).toBe('select-all');
    expect(pageKeyCommand(press('c', { ctrlKey: true }), false)).toBe('copy');
    expect(pageKeyCommand(press('x', { metaKey: true }), false)).toBe('cut');
    expect(pageKeyCommand(press('v', { ctrlKey: true }), false)).toBe('paste');
    expect(pageKeyCommand(press('v', { ctrlKey: true, shiftKey: true }), false)).toBeNull();
    expect(pageKeyCommand(press('b', { ctrlKey: true }), false)).toBeNull();
  });

  it('opens the help on "?", the search on "/", the context menu on the Menu key or Shift+F10; F2 renames, Escape clears', () => {
    expect(pageKeyCommand(press('?', { shiftKey: true }), false)).toBe('help');
    expect(pageKeyCommand(press('/'), false)).toBe('focus-search');
    expect(pageKeyCommand(press('ContextMenu'), false)).toBe('context-menu');
    expect(pageKeyCommand(press('F10', { shiftKey: true }), false)).toBe('context-menu');
    expect(pageKeyCommand(press('F10'), false)).toBeNull();
    expect(pageKeyCommand(press('F2'), false)).toBe('rename');
    expect(pageKeyCommand(press('Escape'), false)).toBe('clear-selection');
    expect(pageKeyCommand(press('/', { ctrlKey: true }), false)).toBeNull();
  });

  it('leaves every key to a text field being typed in', () => {
    expect(pageKeyCommand(press('a', { ctrlKey: true }), true)).toBeNull();
    expect(pageKeyCommand(press('/'), true)).toBeNull();
    expect(pageKeyCommand(press('?'), true)).toBeNull();
  });

  it('lists each shortcut once, with the platform modifier', () => {
    const lines = shortcutLines('⌘');
    expect(new Set(lines.map((line) => line.id)).size).toBe(lines.length);
    expect(lines.find((line) => line.id === 'copy')?.keys).toEqual([['⌘', 'C']]);
  });
});
