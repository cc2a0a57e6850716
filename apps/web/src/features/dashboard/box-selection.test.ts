import { describe, expect, it } from 'vitest';
import { boxBetween, boxesTouch, boxSelection, isBoxDrag, keysInBox } from './box-selection';

const cell = (key: string, left: number, top: number) => ({ key, box: { left, top, right: left + 100, bottom: top + 100 } });
// Two rows of two tiles, 10 px apart.
const cells = [cell('a', 0, 0), cell('b', 110, 0), cell('c', 0, 110), cell('d', 110, 110)];

describe('box selection', () => {
  it('spans the same box whichever way the drag went', () => {
    expect(boxBetween({ x: 50, y: 80 }, { x: 10, y: 20 })).toEqual({ left: 10, top: 20, right: 50, bottom: 80 });
  });

  it('is a box only once the pointer moved a few pixels', () => {
    expect(isBoxDrag(boxBetween({ x: 5, y: 5 }, { x: 7, y: 6 }))).toBe(false);
    expect(isBoxDrag(boxBetween({ x: 5, y: 5 }, { x: 5, y: 12 }))).toBe(true);
  });

  it('takes every cell it touches, edges included, and none in the gaps', () => {
    expect(keysInBox(boxBetween({ x: 50, y: 50 }, { x: 150, y: 60 }), cells)).toEqual(['a', 'b']);
    expect(keysInBox(boxBetween({ x: 90, y: 90 }, { x: 120, y: 120 }), cells)).toEqual(['a', 'b', 'c', 'd']);
    expect(keysInBox(boxBetween({ x: 102, y: 0 }, { x: 108, y: 210 }), cells)).toEqual([]);
    expect(boxesTouch({ left: 0, top: 0, right: 10, bottom: 10 }, { left: 10, top: 10, right: 20, bottom: 20 })).toBe(true);
  });

  it('replaces the selection, or adds to the one it started from with Ctrl or Shift held', () => {
    const before = new Set(['x']);
    expect([...boxSelection(['a', 'b'], before, false)]).toEqual(['a', 'b']);
    expect([...boxSelection(['a'], before, true)]).toEqual(['x', 'a']);
  });
});
