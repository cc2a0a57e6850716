import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FileStore } from '@tus/file-store';
import { Upload } from '@tus/utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.ts';
import { createLocalResumableStore } from './local-resumable-store.ts';
import type { ResumableStore } from './resumable-store.ts';

// The local store joins tus ids to a folder path: an id that is not exactly `<key>.tus`
// with a key of the id alphabet must never reach the file system, not even one that
// would stay inside the folder while naming another upload.

let root: string;
let store: ResumableStore;
let victimKey: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-tus-store-'));
  store = createLocalResumableStore(root);
  victimKey = newId();
  await store.datastore.create(new Upload({ id: store.storeIdOf(victimKey), size: 8, offset: 0, metadata: { filename: 'victim.bin' } }));
  await store.datastore.write(Readable.from([Buffer.from('abcd')]), store.storeIdOf(victimKey), 0);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const hostileIds = () => [
  `someId12/../${victimKey}.tus`,
  `../.tmp/${victimKey}.tus`,
  `../../${victimKey}.tus`,
  `${victimKey}.tus/`,
  `someId12\\..\\${victimKey}.tus`,
  `${victimKey}`,
  `${victimKey}.tus.json`,
  `..${victimKey}.tus`.replace(victimKey, 'a'),
  `${victimKey}%2F..%2Fx.tus`,
  `${victimKey}\0.tus`,
  '.tus',
  'short.tus',
];

describe('the local tus store', () => {
  it('keeps the upload of a valid id as tus left it', async () => {
    const upload = await store.datastore.getUpload(store.storeIdOf(victimKey));
    expect([upload.id, upload.offset, upload.size]).toEqual([`${victimKey}.tus`, 4, 8]);
    expect(store.keyOf(upload.id)).toBe(victimKey);
  });

  it('refuses every id that is not <key>.tus as an upload not found, and touches no file', async () => {
    const before = await readdir(path.join(root, '.tmp'));
    for (const id of hostileIds()) {
      await expect(store.datastore.getUpload(id), id).rejects.toMatchObject({ status_code: 404 });
      await expect(store.datastore.write(Readable.from([Buffer.from('evil')]), id, 4), id).rejects.toMatchObject({ status_code: 404 });
      await expect(store.datastore.remove(id), id).rejects.toMatchObject({ status_code: 404 });
      await expect(store.datastore.declareUploadLength(id, 1), id).rejects.toMatchObject({ status_code: 404 });
      await expect(store.datastore.create(new Upload({ id, size: 1, offset: 0 })), id).rejects.toMatchObject({ status_code: 404 });
      expect(() => (store.datastore as FileStore).read(id), id).toThrow();
      expect(() => store.keyOf(id), id).toThrow();
    }
    expect(await readdir(path.join(root, '.tmp'))).toEqual(before);
    expect((await stat(path.join(root, '.tmp', `${victimKey}.tus`))).size).toBe(4);
    expect((await store.datastore.getUpload(store.storeIdOf(victimKey))).offset).toBe(4);
  });

  it('refuses keys outside the id alphabet in its own operations', async () => {
    for (const key of ['../x', 'a/b/cdefgh', `${victimKey}/..`, 'ab', `x${'.'.repeat(9)}`]) {
      expect(() => store.storeIdOf(key), key).toThrow();
      await expect(store.isComplete(key, 4), key).rejects.toThrow();
      await expect(store.finish(key, 4), key).rejects.toThrow();
      await expect(store.remove(key), key).rejects.toThrow();
    }
    expect(await store.isComplete(victimKey, 4)).toBe(true);
  });
});
