import { describe, expect, it } from 'vitest';
import { categoryShares, downloadRows, seriesColor, SERIES_COLORS } from './chart-data';

describe('downloadRows', () => {
  it('pivots the top shares into one row per day, oldest first, with 0 where a share had none', () => {
    const rows = downloadRows([
      {
        shareId: 'a',
        name: 'report.pdf',
        total: 5,
        days: [
          { day: '2026-03-02', count: 2 },
          { day: '2026-03-04', count: 3 },
        ],
      },
      { shareId: 'b', name: 'photos', total: 1, days: [{ day: '2026-03-01', count: 1 }] },
    ]);
    expect(rows).toEqual([
      { day: '2026-03-01', a: 0, b: 1 },
      { day: '2026-03-02', a: 2, b: 0 },
      { day: '2026-03-04', a: 3, b: 0 },
    ]);
  });

  it('keeps only the first shares (the server sends the busiest first)', () => {
    const shares = ['a', 'b', 'c'].map((shareId) => ({ shareId, name: shareId, total: 1, days: [{ day: '2026-03-01', count: 1 }] }));
    expect(downloadRows(shares, 2)).toEqual([{ day: '2026-03-01', a: 1, b: 1 }]);
    expect(downloadRows([])).toEqual([]);
  });
});

describe('categoryShares', () => {
  it('gives whole percents that add up to 100', () => {
    const shares = categoryShares([
      { category: 'image', files: 1, bytes: 1 },
      { category: 'video', files: 1, bytes: 1 },
      { category: 'document', files: 1, bytes: 1 },
    ]);
    expect(shares.map((share) => share.percent)).toEqual([34, 33, 33]);
    expect(
      categoryShares([
        { category: 'image', files: 2, bytes: 4000 },
        { category: 'document', files: 1, bytes: 500 },
      ]).map((share) => share.percent),
    ).toEqual([89, 11]);
  });

  it('is 0 everywhere for an empty drive', () => {
    expect(categoryShares([{ category: 'other', files: 1, bytes: 0 }])).toEqual([{ category: 'other', files: 1, bytes: 0, percent: 0 }]);
  });
});

describe('seriesColor', () => {
  it('cycles the palette', () => {
    expect(seriesColor(SERIES_COLORS.length)).toBe(SERIES_COLORS[0]);
  });
});
