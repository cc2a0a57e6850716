import { describe, expect, it } from 'vitest';
import { itemKeyCommand, type ItemKeyPosition } from './item-keyboard';

// A grid of 4 columns and 30 items: 8 rows, the last one holding two.
const grid = (index: number): ItemKeyPosition => ({ index, count: 30, columns: 4, view: 'grid' });
const list = (index: number): ItemKeyPosition => ({ index, count: 30, columns: 1, view: 'list' });
const moveTo = (index: number) => ({ kind: 'move', index });

describe('keys on an item of the listing', () => {
  it('arrows move one item sideways and one row up or down in the grid, stopping at the ends', () => {
    expect(itemKeyCommand('ArrowRight', grid(5))).toEqual(moveTo(6));
    expect(itemKeyCommand('ArrowLeft', grid(5))).toEqual(moveTo(4));
    expect(itemKeyCommand('ArrowDown', grid(5))).toEqual(moveTo(9));
    expect(itemKeyCommand('ArrowUp', grid(5))).toEqual(moveTo(1));
    expect(itemKeyCommand('ArrowLeft', grid(0))).toEqual(moveTo(0));
    expect(itemKeyCommand('ArrowRight', grid(29))).toEqual(moveTo(29));
    expect(itemKeyCommand('ArrowUp', grid(2))).toEqual(moveTo(0));
    expect(itemKeyCommand('ArrowDown', grid(27))).toEqual(moveTo(29));
  });

  it('in the list, up and down move one row and left and right are not the listing’s', () => {
    expect(itemKeyCommand('ArrowDown', list(5))).toEqual(moveTo(6));
    expect(itemKeyCommand('ArrowUp', list(5))).toEqual(moveTo(4));
    expect(itemKeyCommand('ArrowRight', list(5))).toBeNull();
    expect(itemKeyCommand('ArrowLeft', list(5))).toBeNull();
  });

  it('Home and End go to the first and last item, the page keys five rows', () => {
    expect(itemKeyCommand('Home', grid(13))).toEqual(moveTo(0));
    expect(itemKeyCommand('End', grid(13))).toEqual(moveTo(29));
    expect(itemKeyCommand('PageDown', grid(1))).toEqual(moveTo(21));
    expect(itemKeyCommand('PageUp', grid(25))).toEqual(moveTo(5));
    expect(itemKeyCommand('PageDown', list(27))).toEqual(moveTo(29));
    expect(itemKeyCommand('PageUp', list(3))).toEqual(moveTo(0));
  });

  it('Enter opens, Space toggles, Delete or Backspace deletes, F2 renames, Escape clears the selection', () => {
    expect(itemKeyCommand('Enter', grid(3))).toEqual({ kind: 'open' });
    expect(itemKeyCommand(' ', grid(3))).toEqual({ kind: 'toggle' });
    expect(itemKeyCommand('Delete', grid(3))).toEqual({ kind: 'delete' });
    expect(itemKeyCommand('Backspace', list(3))).toEqual({ kind: 'delete' });
    expect(itemKeyCommand('F2', list(3))).toEqual({ kind: 'rename' });
    expect(itemKeyCommand('Escape', grid(3))).toEqual({ kind: 'clear-selection' });
  });

  it('other keys are left to the page', () => {
    expect(itemKeyCommand('a', grid(3))).toBeNull();
    expect(itemKeyCommand('Tab', list(3))).toBeNull();
  });
});
