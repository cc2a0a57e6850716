import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Server } from '@tus/server';
import { DataStore, type Locker, Upload } from '@tus/utils';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ResumableStore } from '../../adapters/resumable-store/resumable-store.ts';
import type { ResumableUploadsService } from './resumable-uploads.service.ts';
import { createTusServer } from './tus-server.ts';

// node-request-bodies.ts replaces a private method of @tus/server's PATCH handler, and the
// routes rewrite the raw request's method for X-HTTP-Method-Override. These tests fail when
// an upgrade of tus or srvx changes what that relies on, before a user's upload does.

const PATCHED_PACKAGES = ['@tus/server', '@tus/utils', '@tus/file-store', '@tus/s3-store', 'srvx'];
const here = dirname(fileURLToPath(import.meta.url));

/** The package.json Node's resolution would find from this file: the nearest node_modules up. */
function installedManifest(name: string): { version: string } {
  for (let dir = here; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    if (dirname(dir) === dir) throw new Error(`${name} is not installed`);
  }
}

const serverManifest = JSON.parse(readFileSync(join(here, '../../../package.json'), 'utf8')) as { dependencies: Record<string, string> };

describe('the packages whose internals are patched', () => {
  it('are pinned to an exact version in apps/server/package.json', () => {
    for (const name of PATCHED_PACKAGES) expect(serverManifest.dependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('are installed at exactly the pinned version', () => {
    for (const name of PATCHED_PACKAGES) expect(installedManifest(name).version, name).toBe(serverManifest.dependencies[name]);
  });

  it('@tus/server has the PATCH handler method the patch replaces, called through the instance', () => {
    const handler = new Server({ path: '/x', datastore: new DataStore() }).handlers.PATCH;
    const ownWrite = (handler as unknown as { writeToStore?: unknown }).writeToStore;
    expect(typeof ownWrite).toBe('function');
    // (webStream, upload, maxFileSize, context): the order node-request-bodies.ts reads them in.
    expect((ownWrite as (...args: unknown[]) => unknown).length).toBe(4);
    expect(Object.hasOwn(handler, 'writeToStore')).toBe(false);
    expect(typeof handler.send).toBe('function');
    expect(handler.store).toBeInstanceOf(DataStore);
  });
});

/** A store of one 64-byte upload that keeps the bytes each write brought. */
class CollectingStore extends DataStore {
  written: Buffer[] = [];
  override async getUpload(id: string): Promise<Upload> {
    return new Upload({ id, size: 64, offset: 0, metadata: {}, creation_date: new Date().toISOString() });
  }
  override async write(stream: Readable, _id: string, offset: number): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    this.written.push(Buffer.concat(chunks));
    return offset + Buffer.concat(chunks).length;
  }
}

describe('a PATCH through the patched handler', () => {
  const datastore = new CollectingStore();
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
  const tusOwnWrite = vi.spyOn(
    Object.getPrototypeOf(Object.getPrototypeOf(new Server({ path: '/x', datastore }).handlers.PATCH)) as {
      writeToStore: () => Promise<number>;
    },
    'writeToStore',
  );

  let server: http.Server;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      // What the routes do for a client that overrides the method (resumable-uploads.routes.ts).
      if (request.headers['x-http-method-override'] === 'PATCH') request.method = 'PATCH';
      void tus.handle(request, response, { userId: 'u1', uploadId: 'upload1' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    tusOwnWrite.mockRestore();
    await new Promise((resolve) => server.close(resolve));
  });
  afterEach(() => {
    datastore.written = [];
    tusOwnWrite.mockClear();
  });

  function send(
    method: string,
    body: Buffer,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; offset: string | undefined }> {
    const { port } = server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path: '/api/uploads/upload1',
          headers: {
            'Tus-Resumable': '1.0.0',
            'Upload-Offset': '0',
            'Content-Type': 'application/offset+octet-stream',
            'Content-Length': String(body.length),
            ...headers,
          },
        },
        (response) => {
          response.resume();
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, offset: response.headers['upload-offset'] as string | undefined }),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  it('reads the body from the Node request: every byte reaches the store, tus never reads a web stream', async () => {
    const body = Buffer.from('bytes read from the node request');
    expect(await send('PATCH', body)).toEqual({ status: 204, offset: String(body.length) });
    expect(Buffer.concat(datastore.written)).toEqual(body);
    expect(tusOwnWrite).not.toHaveBeenCalled();
  });

  it('a POST whose raw method the route rewrote is dispatched as that PATCH', async () => {
    const body = Buffer.from('overridden');
    expect(await send('POST', body, { 'X-HTTP-Method-Override': 'PATCH' })).toEqual({ status: 204, offset: String(body.length) });
    expect(Buffer.concat(datastore.written)).toEqual(body);
    expect(tusOwnWrite).not.toHaveBeenCalled();
  });

  it('a body past the upload length gets tus 413 through the patched write', async () => {
    expect((await send('PATCH', Buffer.alloc(65))).status).toBe(413);
    expect(tusOwnWrite).not.toHaveBeenCalled();
  });
});
