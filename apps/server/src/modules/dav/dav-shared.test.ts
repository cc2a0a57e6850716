import { describe, expect, it } from 'vitest';
import { nameSharedItems, type SharedItem } from './dav-shared.ts';

const item = (kind: SharedItem['kind'], name: string, shareId: string, firstName: string, lastName?: string): SharedItem => ({
  kind,
  id: `id-${shareId}`,
  name,
  shareId,
  owner: lastName ? { firstName, lastName } : { firstName },
});

describe('names in Shared with me', () => {
  it('keeps a name no other shared item has, and sorts by name as the drive compares them', () => {
    const named = nameSharedItems([item('file', 'b.txt', 's1', 'Ann'), item('folder', 'A', 's2', 'Bob')]);
    expect(named.map((entry) => entry.davName)).toEqual(['A', 'b.txt']);
  });

  it("names clashing items after their owners (before a file's extension), and by share where one owner shared two", () => {
    const items = [
      item('folder', 'Photos', '22222222-b', 'Ann', 'Lee'),
      item('folder', 'photos', '11111111-a', 'Ann', 'Lee'),
      item('folder', 'Photos', '33333333-c', 'Bob'),
      item('file', 'report.pdf', '44444444-d', 'Ann', 'Lee'),
      item('file', 'Report.pdf', '55555555-e', 'Bob'),
    ];
    const names = nameSharedItems(items).map((entry) => entry.davName);
    expect(names).toEqual([
      'photos (Ann Lee, 11111111)',
      'Photos (Ann Lee, 22222222)',
      'Photos (Bob)',
      'report (Ann Lee).pdf',
      'Report (Bob).pdf',
    ]);
    // The same shares in another order get the same names.
    expect(
      nameSharedItems([...items].reverse())
        .map((entry) => entry.davName)
        .sort(),
    ).toEqual([...names].sort());
  });
});
