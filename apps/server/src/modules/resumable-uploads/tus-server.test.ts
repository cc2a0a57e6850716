import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { DataStore, type Locker, Upload } from '@tus/utils';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { ResumableStore } from '../../adapters/resumable-store/resumable-store.ts';
import type { ResumableUploadsService } from './resumable-uploads.service.ts';
import { createTusServer } from './tus-server.ts';

// tus reads the whole raw URL for an id; the route has checked one id only. Whatever the
// URL says after it, the store must be asked about that id and no other.

const CHECKED = 'checkedUploadId1';
const OTHER = 'someoneElsesId22';

/** A store that records which uploads tus asked it about. */
class RecordingStore extends DataStore {
  asked: string[] = [];
  override async getUpload(id: string): Promise<Upload> {
    this.asked.push(id);
    return new Upload({ id, size: 64, offset: 0, metadata: { filename: 'x' }, creation_date: new Date().toISOString() });
  }
  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    this.asked.push(id);
    let bytes = 0;
    for await (const chunk of stream) bytes += (chunk as Buffer).length;
    return offset + bytes;
  }
}

const datastore = new RecordingStore();
const store: ResumableStore = {
  datastore,
  storeIdOf: (key) => `${key}.tus`,
  keyOf: (storeId) => storeId.replace(/\.tus$/, ''),
  isComplete: async () => false,
  finish: async () => {},
  remove: async () => {},
};
const locker: Locker = { newLock: () => ({ lock: async () => {}, unlock: async () => {} }) };
const uploads = { hashState: async () => undefined, saveHashState: async () => {} } as unknown as ResumableUploadsService;
const tus = createTusServer({ store, locker, uploads, log: { info: () => {}, warn: () => {}, error: () => {} } as never });

let server: http.Server;
beforeAll(async () => {
  // What the routes do once they have checked the caller's own upload.
  server = http.createServer((request, response) => void tus.handle(request, response, { userId: 'u1', uploadId: CHECKED }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  datastore.asked = [];
});

function send(method: string, path: string, headers: Record<string, string> = {}, body = Buffer.alloc(0)): Promise<number> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path, headers: { 'Tus-Resumable': '1.0.0', 'Content-Length': String(body.length), ...headers } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const smuggling = [
  `/api/uploads/${CHECKED}?/../${OTHER}`,
  `/api/uploads/${CHECKED}#/../${OTHER}`,
  `/api/uploads/${CHECKED}/${OTHER}`,
  `/api/uploads/${OTHER}`,
];

it('HEAD asks the store about the checked upload alone, whatever the URL ends with', async () => {
  for (const path of smuggling) {
    expect(await send('HEAD', path)).toBe(200);
  }
  expect(datastore.asked).toEqual(smuggling.map(() => `${CHECKED}.tus`));
});

it('PATCH writes to the checked upload alone, whatever the URL ends with', async () => {
  for (const path of smuggling) {
    expect(
      await send('PATCH', path, { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, Buffer.from('four')),
    ).toBe(204);
  }
  expect(new Set(datastore.asked)).toEqual(new Set([`${CHECKED}.tus`]));
});
