import { describe, expect, it } from 'vitest';
import { clampPan, FITTED, MAX_SCALE, zoomAt } from './zoom';

const box = { width: 400, height: 300 };

describe('zooming and panning an image', () => {
  it('keeps the point under the pointer in place', () => {
    const zoomed = zoomAt(FITTED, 2, { x: 100, y: 50 }, box);
    expect(zoomed).toEqual({ scale: 2, x: -100, y: -50 });
    // The image point under (100, 50) is (100 - x) / scale = 100 before and after.
    expect((100 - zoomed.x) / zoomed.scale).toBe(100);
  });

  it('stays between fitted and the largest scale', () => {
    expect(zoomAt(FITTED, 0.2, { x: 0, y: 0 }, box).scale).toBe(1);
    expect(zoomAt(FITTED, 100, { x: 0, y: 0 }, box).scale).toBe(MAX_SCALE);
  });

  it('cannot pan a fitted image, and a zoomed one only as far as it overhangs', () => {
    expect(clampPan({ scale: 1, x: 50, y: -20 }, box)).toEqual({ scale: 1, x: 0, y: 0 });
    expect(clampPan({ scale: 2, x: 500, y: -500 }, box)).toEqual({ scale: 2, x: 200, y: -150 });
  });
});
