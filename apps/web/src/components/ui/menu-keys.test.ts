import { describe, expect, it } from 'vitest';
import { menuKeyAction } from './menu-keys';

const labels = ['Open', 'Rename', 'Download', 'Delete'];

describe('menuKeyAction', () => {
  it('wraps the arrows around the ends', () => {
    expect(menuKeyAction('ArrowDown', 3, labels)).toEqual({ kind: 'focus', index: 0, preventDefault: true });
    expect(menuKeyAction('ArrowUp', 0, labels)).toEqual({ kind: 'focus', index: 3, preventDefault: true });
    expect(menuKeyAction('ArrowDown', 1, labels)).toEqual({ kind: 'focus', index: 2, preventDefault: true });
  });

  it('goes to the ends with Home and End', () => {
    expect(menuKeyAction('Home', 2, labels)).toEqual({ kind: 'focus', index: 0, preventDefault: true });
    expect(menuKeyAction('End', 0, labels)).toEqual({ kind: 'focus', index: 3, preventDefault: true });
  });

  it('jumps to the next item starting with a typed character, after the focused one', () => {
    expect(menuKeyAction('d', 0, labels)).toEqual({ kind: 'focus', index: 2, preventDefault: false });
    expect(menuKeyAction('D', 2, labels)).toEqual({ kind: 'focus', index: 3, preventDefault: false });
    expect(menuKeyAction('x', 0, labels)).toBeNull();
    expect(menuKeyAction(' ', 0, labels)).toBeNull();
  });

  it('closes on Escape and leaves on Tab; other keys do nothing', () => {
    expect(menuKeyAction('Escape', 1, labels)).toEqual({ kind: 'close' });
    expect(menuKeyAction('Tab', 1, labels)).toEqual({ kind: 'tab' });
    expect(menuKeyAction('Enter', 1, labels)).toBeNull();
  });
});
