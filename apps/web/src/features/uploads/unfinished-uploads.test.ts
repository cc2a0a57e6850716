import { describe, expect, it } from 'vitest';
import type { PreviousUpload } from 'tus-js-client';
import { UNFINISHED_UPLOAD_LIFETIME_MS, UnfinishedUploadStore, uploadFingerprint } from './unfinished-uploads';

/** localStorage's interface over a Map. */
function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    get length() {
      return map.size;
    },
    key: (index: number) => [...map.keys()][index] ?? null,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}

const START = Date.parse('2026-11-24T12:00:00Z');

function upload(name: string, size: number, uploadUrl: string, extra: Record<string, string> = {}, createdAt = START): PreviousUpload {
  return {
    size,
    metadata: { filename: name, filetype: 'application/octet-stream', ...extra },
    creationTime: new Date(createdAt).toString(),
    urlStorageKey: '',
    uploadUrl,
    parallelUploadUrls: null,
  };
}

function setup() {
  const storage = memoryStorage();
  let now = START;
  const store = new UnfinishedUploadStore(
    () => storage,
    () => now,
  );
  return { storage, store, advance: (ms: number) => (now += ms) };
}

describe('UnfinishedUploadStore', () => {
  it('lists an owner’s unfinished uploads with name, size and folder, and none of another user’s', async () => {
    const { store } = setup();
    await store.addUpload(
      uploadFingerprint('user-1', 'film.mp4', 900),
      upload('film.mp4', 900, 'http://h/api/uploads/a', { folderId: 'f1' }),
    );
    await store.addUpload(uploadFingerprint('user-2', 'other.bin', 50), upload('other.bin', 50, 'http://h/api/uploads/b'));

    expect(store.forOwner('user-1')).toEqual([{ uploadUrl: 'http://h/api/uploads/a', name: 'film.mp4', size: 900, folderId: 'f1' }]);
    expect(store.forOwner('user-2')).toEqual([{ uploadUrl: 'http://h/api/uploads/b', name: 'other.bin', size: 50, folderId: null }]);
    expect(store.forOwner('user-3')).toEqual([]);
  });

  it('finds by fingerprint for tus-js-client, and an owner id cannot reach into another’s through a prefix', async () => {
    const { store } = setup();
    await store.addUpload(uploadFingerprint('user-10', 'a.bin', 1), upload('a.bin', 1, 'http://h/1'));
    expect(await store.findUploadsByFingerprint(uploadFingerprint('user-1', 'a.bin', 1))).toEqual([]);
    expect(store.forOwner('user-1')).toEqual([]);
    const [found] = await store.findUploadsByFingerprint(uploadFingerprint('user-10', 'a.bin', 1));
    expect(found?.uploadUrl).toBe('http://h/1');
    expect(found?.urlStorageKey).toMatch(/^cloudvault\.upload::/);
  });

  it('removes an entry by its key (tus-js-client on success) and by its address (cancel)', async () => {
    const { store, storage } = setup();
    const key = await store.addUpload(uploadFingerprint('u', 'a.bin', 1), upload('a.bin', 1, 'http://h/1'));
    await store.addUpload(uploadFingerprint('u', 'b.bin', 2), upload('b.bin', 2, 'http://h/2'));
    await store.removeUpload(key);
    expect(store.forOwner('u').map((entry) => entry.name)).toEqual(['b.bin']);
    store.removeByUrl('http://h/2');
    expect(store.forOwner('u')).toEqual([]);
    expect(storage.map.size).toBe(0);
  });

  it('drops uploads the server has expired, and unreadable entries', async () => {
    const { store, storage, advance } = setup();
    await store.addUpload(uploadFingerprint('u', 'old.bin', 1), upload('old.bin', 1, 'http://h/old'));
    advance(UNFINISHED_UPLOAD_LIFETIME_MS - 1000);
    await store.addUpload(
      uploadFingerprint('u', 'new.bin', 1),
      upload('new.bin', 1, 'http://h/new', {}, START + UNFINISHED_UPLOAD_LIFETIME_MS - 1000),
    );
    storage.setItem('cloudvault.upload::u/1/broken::x', '{not json');
    advance(1000);

    expect(store.forOwner('u').map((entry) => entry.name)).toEqual(['new.bin']);
    expect([...storage.map.keys()]).toHaveLength(1);
  });

  it('leaves entries without a file name or address out of the panel', async () => {
    const { store } = setup();
    await store.addUpload(uploadFingerprint('u', 'x', 1), { ...upload('x', 1, 'http://h/1'), uploadUrl: null });
    await store.addUpload(uploadFingerprint('u', 'y', 1), { ...upload('y', 1, 'http://h/2'), metadata: {} });
    expect(store.forOwner('u')).toEqual([]);
  });

  it('works without storage: nothing is kept, nothing breaks', async () => {
    const store = new UnfinishedUploadStore(() => null);
    await store.addUpload('f', upload('a', 1, 'http://h/1'));
    expect(await store.findAllUploads()).toEqual([]);
    expect(store.forOwner('u')).toEqual([]);
  });
});
