import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Change } from '@cloudvault/contract/changes';
import { driveKeys, notificationKeys, shareKeys, trashKeys, versionKeys } from '../../lib/query-keys';
import { keysTouchedBy, listingHolds, listingKeyOf, type ListingsHolding } from './change-keys';

const at = '2026-12-06T10:00:00.000Z';
const file = (op: Change['op'], id: string, parentId: string | null, extra: Partial<Change> = {}): Change => ({
  op,
  kind: 'file',
  id,
  parentId,
  name: `${id}.txt`,
  at,
  ...extra,
});
const folder = (op: Change['op'], id: string, parentId: string | null, extra: Partial<Change> = {}): Change => ({
  op,
  kind: 'folder',
  id,
  parentId,
  name: id,
  at,
  ...extra,
});
const nowhere: ListingsHolding = () => [];
const crossFolderViews = [driveKeys.searches, driveKeys.starred, driveKeys.recent];
const sorted = (keys: readonly QueryKey[]) => keys.map((key) => JSON.stringify(key)).sort();
const touched = (changes: Change[], holding: ListingsHolding = nowhere) => sorted(keysTouchedBy(changes, holding).keys);

describe('the answers a change touches', () => {
  it('an upload: its folder’s files and the storage bar, and the views across folders', () => {
    expect(touched([file('created', 'f1', 'd1')])).toEqual(sorted([driveKeys.files('d1'), driveKeys.storage, ...crossFolderViews]));
    expect(touched([file('created', 'f1', null)])).toEqual(sorted([driveKeys.files(null), driveKeys.storage, ...crossFolderViews]));
  });

  it('new content: the listing (a new content tag for the viewer), the storage bar and the file’s versions', () => {
    expect(touched([file('updated', 'f1', 'd1')])).toEqual(
      sorted([driveKeys.files('d1'), driveKeys.storage, versionKeys.ofFile('f1'), ...crossFolderViews]),
    );
  });

  it('a move: the folder it went to and the one the cache still shows it in; the space used stays', () => {
    const holding: ListingsHolding = (id) => (id === 'f1' ? [driveKeys.files('old')] : []);
    expect(touched([file('moved', 'f1', 'new')], holding)).toEqual(
      sorted([driveKeys.files('new'), driveKeys.files('old'), shareKeys.mine, ...crossFolderViews]),
    );
  });

  it('a folder renamed or moved: both folder listings, the breadcrumbs below it and its own listings', () => {
    const holding: ListingsHolding = (id) => (id === 'd2' ? [driveKeys.folders('d1')] : []);
    expect(touched([folder('moved', 'd2', null)], holding)).toEqual(
      sorted([
        driveKeys.folders(null),
        driveKeys.folders('d1'),
        ['drive', 'path'],
        driveKeys.folders('d2'),
        driveKeys.files('d2'),
        shareKeys.mine,
        ...crossFolderViews,
      ]),
    );
  });

  it('to Trash and back: the listing, Trash and the storage bar', () => {
    const holding: ListingsHolding = (id) => (id === 'f1' ? [driveKeys.files('d1')] : []);
    const common = [driveKeys.files('d1'), trashKeys.all, driveKeys.storage, shareKeys.mine, ...crossFolderViews];
    expect(touched([file('deleted', 'f1', 'd1')], holding)).toEqual(sorted(common));
    expect(touched([file('restored', 'f1', 'd1')])).toEqual(sorted(common));
  });

  it('a share from someone else: Shared with me and the bell, not this account’s listings, space or Trash', () => {
    const shared = keysTouchedBy([folder('created', 'team', null, { shareId: 's1' })], nowhere);
    expect(sorted(shared.keys)).toEqual(sorted([shareKeys.sharedWithMe, notificationKeys.all, ...crossFolderViews]));
    expect(shared.newShare).toBe(true);
    // A file added inside the shared folder: that folder's listing only.
    const inside = keysTouchedBy([file('created', 'f9', 'team', { shareId: 's1' })], nowhere);
    expect(sorted(inside.keys)).toEqual(sorted([driveKeys.files('team'), ...crossFolderViews]));
    expect(inside.newShare).toBe(false);
    // The share ended: Shared with me drops it, the bell has nothing new.
    const ended = keysTouchedBy([folder('deleted', 'team', null, { shareId: 's1' })], nowhere);
    expect(ended.newShare).toBe(false);
    expect(sorted(ended.keys)).toContain(JSON.stringify(shareKeys.sharedWithMe));
  });

  it('a burst (a copy of a thousand files) touches each answer once', () => {
    const copy = Array.from({ length: 1000 }, (_, index) => file('created', `f${index}`, 'd1'));
    const { keys } = keysTouchedBy([folder('created', 'd1', null), ...copy], nowhere);
    expect(keys).toHaveLength(new Set(keys.map((key) => JSON.stringify(key))).size);
    expect(sorted(keys)).toEqual(sorted([driveKeys.folders(null), driveKeys.files('d1'), driveKeys.storage, ...crossFolderViews]));
  });

  it('nothing for no change', () => {
    expect(keysTouchedBy([], nowhere).keys).toEqual([]);
  });
});

describe('finding the listing an item left in the cache', () => {
  it('knows a folder’s listing keys, sorted or not, and nothing else', () => {
    expect(listingKeyOf(driveKeys.files('d1'))).toEqual(driveKeys.files('d1'));
    expect(listingKeyOf([...driveKeys.folders(null), 'sorted', 'name', 'asc'])).toEqual(driveKeys.folders(null));
    expect(listingKeyOf(driveKeys.storage)).toBeNull();
    expect(listingKeyOf(driveKeys.path('d1'))).toBeNull();
    expect(listingKeyOf(trashKeys.all)).toBeNull();
  });

  it('finds an item in a plain listing and in the pages of a sorted one', () => {
    expect(listingHolds([{ id: 'a' }, { id: 'b' }], 'b')).toBe(true);
    expect(listingHolds([{ id: 'a' }], 'b')).toBe(false);
    const pages = {
      pages: [
        { items: [{ id: 'a' }], nextCursor: 'x' },
        { items: [{ id: 'b' }], nextCursor: null },
      ],
      pageParams: [null, 'x'],
    };
    expect(listingHolds(pages, 'b')).toBe(true);
    expect(listingHolds(pages, 'c')).toBe(false);
    expect(listingHolds(undefined, 'a')).toBe(false);
    expect(listingHolds({ used: 1 }, 'a')).toBe(false);
  });

  it('works on a real query cache', () => {
    const client = new QueryClient();
    client.setQueryData([...driveKeys.files('d1'), 'sorted', 'name', 'asc'], {
      pages: [{ items: [{ id: 'f1' }], nextCursor: null }],
      pageParams: [null],
    });
    client.setQueryData(driveKeys.files('d2'), [{ id: 'f2' }]);
    const holding = (id: string) =>
      client
        .getQueryCache()
        .findAll({ queryKey: driveKeys.all })
        .filter((query) => listingHolds(query.state.data, id))
        .map((query) => listingKeyOf(query.queryKey));
    expect(holding('f1')).toEqual([driveKeys.files('d1')]);
    expect(holding('f2')).toEqual([driveKeys.files('d2')]);
  });
});
