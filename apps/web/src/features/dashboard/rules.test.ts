import { describe, expect, it } from 'vitest';
import { createTapTracker, DOUBLE_TAP_MS } from './double-tap';
import { columnsForWidth } from './grid-columns';
import { STAGGER_STEP_MS, STAGGER_TOTAL_MS, staggerDelay, TILE_ENTER_MS } from './stagger';
import { showFreeStorageWarning } from './storage-usage';

describe('Free storage warning', () => {
  it('warns Free users (or users without a known plan) from 80 %', () => {
    expect(showFreeStorageWarning('FREE', 79.9)).toBe(false);
    expect(showFreeStorageWarning('FREE', 80)).toBe(true);
    expect(showFreeStorageWarning(undefined, 85)).toBe(true);
    expect(showFreeStorageWarning('PRO', 95)).toBe(false);
  });
});

describe('double tap', () => {
  it('selects on the first tap and opens on a second tap on the same folder within 300 ms', () => {
    const tap = createTapTracker();
    expect(tap('a', 1000)).toBe('select');
    expect(tap('a', 1000 + DOUBLE_TAP_MS)).toBe('open');
    // The pair is used up: the next tap starts over.
    expect(tap('a', 1000 + DOUBLE_TAP_MS + 10)).toBe('select');
  });

  it('starts over after the window or on another folder', () => {
    const tap = createTapTracker();
    expect(tap('a', 0)).toBe('select');
    expect(tap('a', DOUBLE_TAP_MS + 1)).toBe('select');
    expect(tap('b', DOUBLE_TAP_MS + 50)).toBe('select');
    expect(tap('a', DOUBLE_TAP_MS + 100)).toBe('select');
    expect(tap('a', DOUBLE_TAP_MS + 200)).toBe('open');
  });
});

describe('tile stagger', () => {
  it('delays each tile by 50 ms', () => {
    expect(staggerDelay(0)).toBe(0);
    expect(staggerDelay(1)).toBe(STAGGER_STEP_MS);
    expect(staggerDelay(4)).toBe(200);
  });

  it('never lets a large folder animate for more than half a second', () => {
    for (const index of [6, 7, 10, 100, 10_000]) {
      expect(staggerDelay(index) + TILE_ENTER_MS).toBeLessThanOrEqual(STAGGER_TOTAL_MS);
    }
    expect(STAGGER_TOTAL_MS).toBe(500);
    expect(staggerDelay(10_000)).toBe(staggerDelay(6));
  });
});

describe('grid columns', () => {
  it('uses 2 to 6 columns by width', () => {
    expect(columnsForWidth(320)).toBe(2);
    expect(columnsForWidth(600)).toBe(3);
    expect(columnsForWidth(800)).toBe(4);
    expect(columnsForWidth(1000)).toBe(5);
    expect(columnsForWidth(1150)).toBe(6);
    expect(columnsForWidth(4000)).toBe(6);
  });
});
