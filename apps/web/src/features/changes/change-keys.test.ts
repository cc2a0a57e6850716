import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Change } from '@cloudvault/contract/changes';
import { driveKeys, notificationKeys, shareKeys, trashKeys, versionKeys } from '../../lib/query-keys';
import { cachedListings, keysTouchedBy, listingHolds, listingKeyOf, listingShows } from './change-keys';

const at = '2026-12-06T10:00:00.000Z';
const file = (op: Change['op'], id: string, parentId: string | null, extra: Partial<Change> = {}): Change => ({
  op,
  kind: 'file',
  id,
  parentId,
  name: `${id}.txt`,
  at,
  size: 5,
  contentHash: `hash-${id}`,
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
/** A listing's entry as the API lists it. */
const fileEntry = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  originalName: `${id}.txt`,
  size: 5,
  contentHash: `hash-${id}`,
  ...extra,
});
const sortedKey = (key: QueryKey) => [...key, 'sorted', 'name', 'asc'];
const pagesOf = (...items: unknown[]) => ({ pages: [{ items, nextCursor: null }], pageParams: [null] });

const crossFolderViews = [driveKeys.searches, driveKeys.starred, driveKeys.recent];
const sorted = (keys: readonly QueryKey[]) => keys.map((key) => JSON.stringify(key)).sort();
/** A cache with these listings on screen, empty. */
function showing(...keys: QueryKey[]): QueryClient {
  const client = new QueryClient();
  for (const key of keys) client.setQueryData(key, []);
  return client;
}
/** The keys a batch touches with `client`'s cache as it is. */
const touched = (changes: Change[], client: QueryClient) => sorted(keysTouchedBy(changes, cachedListings(client)).keys);

describe('the answers a change touches', () => {
  it('an upload: its folder’s files and the storage bar, and the views across folders', () => {
    const client = showing(driveKeys.files('d1'), driveKeys.files(null));
    expect(touched([file('created', 'f1', 'd1')], client)).toEqual(sorted([driveKeys.files('d1'), driveKeys.storage, ...crossFolderViews]));
    expect(touched([file('created', 'f1', null)], client)).toEqual(sorted([driveKeys.files(null), driveKeys.storage, ...crossFolderViews]));
    // A folder no screen has read: nothing of it to refresh.
    expect(touched([file('created', 'f1', 'd9')], client)).toEqual(sorted([driveKeys.storage, ...crossFolderViews]));
  });

  it('new content: the listing (a new content tag for the viewer), the storage bar and the file’s versions', () => {
    expect(touched([file('updated', 'f1', 'd1')], showing(driveKeys.files('d1')))).toEqual(
      sorted([driveKeys.files('d1'), driveKeys.storage, versionKeys.ofFile('f1'), ...crossFolderViews]),
    );
  });

  it('a move: the folder it went to and the one the cache still shows it in; the space used stays', () => {
    const client = showing(driveKeys.files('new'));
    client.setQueryData(sortedKey(driveKeys.files('old')), pagesOf(fileEntry('f1'), fileEntry('f2')));
    expect(touched([file('moved', 'f1', 'new')], client)).toEqual(
      sorted([driveKeys.files('new'), driveKeys.files('old'), shareKeys.mine, ...crossFolderViews]),
    );
  });

  it('a folder renamed or moved: both folder listings and the breadcrumbs below it', () => {
    const client = showing(driveKeys.folders(null));
    client.setQueryData(driveKeys.folders('d1'), [{ id: 'd2', name: 'd2' }]);
    expect(touched([folder('moved', 'd2', null)], client)).toEqual(
      sorted([driveKeys.folders(null), driveKeys.folders('d1'), ['drive', 'path'], shareKeys.mine, ...crossFolderViews]),
    );
  });

  it('to Trash and back: the listing, Trash and the storage bar; an open folder that went says so', () => {
    const client = showing(driveKeys.files('d2'));
    client.setQueryData(driveKeys.files('d1'), [fileEntry('f1')]);
    const common = [trashKeys.all, driveKeys.storage, shareKeys.mine, ...crossFolderViews];
    expect(touched([file('deleted', 'f1', 'd1')], client)).toEqual(sorted([driveKeys.files('d1'), ...common]));
    expect(touched([file('restored', 'f1', 'd2')], client)).toEqual(sorted([driveKeys.files('d2'), ...common]));
    expect(touched([folder('deleted', 'd3', null)], client)).toEqual(
      sorted([['drive', 'path'], driveKeys.folders('d3'), driveKeys.files('d3'), ...common]),
    );
  });

  it('leaves alone a listing that already shows the change (this tab made it), unless a fetch of it is on its way', () => {
    const client = new QueryClient();
    client.setQueryData(driveKeys.files('d1'), [fileEntry('f1', { originalName: 'renamed.txt' })]);
    client.setQueryData(sortedKey(driveKeys.files('d1')), pagesOf(fileEntry('f1', { originalName: 'renamed.txt' })));
    const renamed = file('moved', 'f1', 'd1', { name: 'renamed.txt' });
    expect(touched([renamed], client)).toEqual(sorted([shareKeys.mine, ...crossFolderViews]));
    // Another order of the same folder still shows the old name: the folder is read again.
    client.setQueryData([...driveKeys.files('d1'), 'sorted', 'size', 'desc'], pagesOf(fileEntry('f1')));
    expect(touched([renamed], client)).toContain(JSON.stringify(driveKeys.files('d1')));

    const uploaded = new QueryClient();
    uploaded.setQueryData(sortedKey(driveKeys.files(null)), pagesOf(fileEntry('f2')));
    expect(touched([file('created', 'f2', null)], uploaded)).toEqual(sorted([driveKeys.storage, ...crossFolderViews]));
    // Other bytes than the cache has: read again.
    expect(touched([file('updated', 'f2', null, { contentHash: 'hash-new', size: 9 })], uploaded)).toContain(
      JSON.stringify(driveKeys.files(null)),
    );
    // A fetch on its way may answer from before the change.
    void uploaded.fetchQuery({ queryKey: driveKeys.files(null), queryFn: () => new Promise<never>(() => {}) });
    expect(touched([file('created', 'f2', null)], uploaded)).toContain(JSON.stringify(driveKeys.files(null)));
  });

  it('a share from someone else: Shared with me and the bell, not this account’s listings, space or Trash', () => {
    const none = cachedListings(showing(driveKeys.files(null), driveKeys.folders(null), driveKeys.files('team')));
    const shared = keysTouchedBy([folder('created', 'team', null, { shareId: 's1' })], none);
    expect(sorted(shared.keys)).toEqual(sorted([shareKeys.sharedWithMe, notificationKeys.all, ...crossFolderViews]));
    expect(shared.newShare).toBe(true);
    // A file added inside the shared folder: that folder's listing only.
    const inside = keysTouchedBy([file('created', 'f9', 'team', { shareId: 's1' })], none);
    expect(sorted(inside.keys)).toEqual(sorted([driveKeys.files('team'), ...crossFolderViews]));
    expect(inside.newShare).toBe(false);
    // The share ended: Shared with me drops it, the bell has nothing new.
    const ended = keysTouchedBy([folder('deleted', 'team', null, { shareId: 's1' })], none);
    expect(ended.newShare).toBe(false);
    expect(sorted(ended.keys)).toContain(JSON.stringify(shareKeys.sharedWithMe));
  });

  it('a burst (a copy of a thousand files) touches each answer once', () => {
    const copy = Array.from({ length: 1000 }, (_, index) => file('created', `f${index}`, 'd1'));
    const { keys } = keysTouchedBy(
      [folder('created', 'd1', null), ...copy],
      cachedListings(showing(driveKeys.folders(null), driveKeys.files('d1'))),
    );
    expect(keys).toHaveLength(new Set(keys.map((key) => JSON.stringify(key))).size);
    expect(sorted(keys)).toEqual(sorted([driveKeys.folders(null), driveKeys.files('d1'), driveKeys.storage, ...crossFolderViews]));
  });

  it('nothing for no change', () => {
    expect(keysTouchedBy([], cachedListings(new QueryClient())).keys).toEqual([]);
  });
});

describe('reading the cached listings', () => {
  it('knows a folder’s listing keys, sorted or not, and nothing else', () => {
    expect(listingKeyOf(driveKeys.files('d1'))).toEqual(driveKeys.files('d1'));
    expect(listingKeyOf(sortedKey(driveKeys.folders(null)))).toEqual(driveKeys.folders(null));
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

  it('says a listing shows a change only with its name, and a file with its size and content hash', () => {
    expect(listingShows([fileEntry('f1')], file('created', 'f1', null))).toBe(true);
    expect(listingShows([fileEntry('f1', { originalName: 'old.txt' })], file('moved', 'f1', null))).toBe(false);
    expect(listingShows([fileEntry('f1', { contentHash: undefined })], file('created', 'f1', null))).toBe(false);
    expect(listingShows([fileEntry('f1', { size: 4 })], file('created', 'f1', null))).toBe(false);
    expect(listingShows([{ id: 'd1', name: 'd1' }], folder('moved', 'd1', null))).toBe(true);
    expect(listingShows([], folder('created', 'd1', null))).toBe(false);
  });

  it('finds where a real query cache holds an item', () => {
    const client = new QueryClient();
    client.setQueryData(sortedKey(driveKeys.files('d1')), pagesOf({ id: 'f1' }));
    client.setQueryData(driveKeys.files('d2'), [{ id: 'f2' }]);
    client.setQueryData(driveKeys.search('f'), [{ id: 'f1' }]);
    const cache = cachedListings(client);
    expect(cache.holding('f1')).toEqual([driveKeys.files('d1')]);
    expect(cache.holding('f2')).toEqual([driveKeys.files('d2')]);
    expect(cache.holding('f3')).toEqual([]);
  });
});
