import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors.ts';
import type { WriteTarget } from '../dav-locks.service.ts';
import type { DavPath } from '../dav-paths.ts';
import type { DavResource } from '../dav.service.ts';
import { copyHandler } from './copy.ts';
import { moveHandler } from './move.ts';
import type { TransferDeps } from './transfer.ts';

const HOST = 'drive.example';
const folder = (path: DavPath): DavResource => ({ kind: 'folder', path, folder: {} as never });
const file = (path: DavPath): DavResource => ({ kind: 'file', path, file: {} as never });

/**
 * COPY and MOVE over fakes of the service and the locks: a tree with `/docs` (a folder),
 * `/notes.txt` and, unless told otherwise, nothing at the destination.
 */
function setUp(options: { destinationExists?: boolean } = {}) {
  const resources = new Map<string, DavResource>([
    ['docs', folder(['docs'])],
    ['notes.txt', file(['notes.txt'])],
  ]);
  const calls = {
    checked: [] as WriteTarget[][],
    transferred: [] as Array<{ method: string; overwrite: boolean; depthInfinity: boolean }>,
  };
  const deps: TransferDeps = {
    dav: {
      async locate(_userId, path) {
        const key = path.join('/');
        const resource = key === 'copy' && options.destinationExists ? file(['copy']) : resources.get(key);
        return { path, resource, parentId: null, name: path.at(-1) ?? '' };
      },
      async transfer(_userId, method, _source, destination, transferOptions) {
        calls.transferred.push({ method, ...transferOptions });
        return { created: destination.resource === undefined };
      },
    },
    locks: {
      async checkWrite(_userId, targets) {
        calls.checked.push([...targets]);
      },
    },
  };
  const send = async (handler: typeof copyHandler, path: DavPath, headers: Record<string, string>) => {
    const reply = { status: 0, code: (status: number) => Object.assign(reply, { status }), send: () => reply };
    const request = { url: `/dav/${path.join('/')}`, davUserId: 'user-1', davPath: path, headers: { host: HOST, ...headers } };
    try {
      await handler(deps)(request as unknown as FastifyRequest, reply as unknown as FastifyReply);
      return { status: reply.status };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { status: error.status, code: error.code };
    }
  };
  return { calls, send };
}

describe('COPY and MOVE', () => {
  it('take a folder with Depth: infinity; COPY also with Depth: 0, MOVE never; neither with Depth: 1', async () => {
    const { calls, send } = setUp();
    const to = { destination: '/dav/copy' };
    expect(await send(copyHandler, ['docs'], { ...to, depth: 'infinity' })).toEqual({ status: 201 });
    expect(await send(copyHandler, ['docs'], { ...to, depth: '0' })).toEqual({ status: 201 });
    expect(await send(copyHandler, ['docs'], { ...to, depth: '1' })).toEqual({ status: 400, code: 'DAV_BAD_DEPTH' });
    expect(await send(moveHandler, ['docs'], { ...to, depth: '0' })).toEqual({ status: 400, code: 'DAV_BAD_DEPTH' });
    expect(await send(moveHandler, ['docs'], to)).toEqual({ status: 201 });
    // A refused Depth is decided before any lock is read or anything moves.
    expect(calls.transferred.map(({ method, depthInfinity }) => [method, depthInfinity])).toEqual([
      ['COPY', true],
      ['COPY', false],
      ['MOVE', true],
    ]);
    expect(calls.checked).toHaveLength(3);
  });

  it("check the destination's locks, and MOVE the source's too: it leaves its place", async () => {
    const { calls, send } = setUp();
    await send(copyHandler, ['notes.txt'], { destination: `http://${HOST}/dav/copy` });
    await send(moveHandler, ['notes.txt'], { destination: `http://${HOST}/dav/copy` });
    expect(calls.checked).toEqual([
      [{ path: ['copy'], tree: true, membership: true }],
      [
        { path: ['notes.txt'], tree: true, membership: true },
        { path: ['copy'], tree: true, membership: true },
      ],
    ]);
  });

  it('answer 204 over an existing destination, and pass Overwrite: F on for the service to refuse', async () => {
    const { calls, send } = setUp({ destinationExists: true });
    expect(await send(copyHandler, ['notes.txt'], { destination: '/dav/copy' })).toEqual({ status: 204 });
    await send(copyHandler, ['notes.txt'], { destination: '/dav/copy', overwrite: 'f' });
    expect(calls.transferred.map((call) => call.overwrite)).toEqual([true, false]);
    expect(await send(copyHandler, ['notes.txt'], { destination: '/dav/copy', overwrite: 'maybe' })).toEqual({
      status: 400,
      code: 'DAV_BAD_OVERWRITE',
    });
  });

  it('refuse a missing destination, one on another server and one outside /dav/, before anything is read', async () => {
    const { calls, send } = setUp();
    expect(await send(moveHandler, ['notes.txt'], {})).toEqual({ status: 400, code: 'DAV_NO_DESTINATION' });
    expect(await send(moveHandler, ['notes.txt'], { destination: 'http://elsewhere.example/dav/copy' })).toEqual({
      status: 502,
      code: 'DAV_OTHER_SERVER',
    });
    expect(await send(moveHandler, ['notes.txt'], { destination: '/api/files' })).toEqual({ status: 403, code: 'DAV_DESTINATION_OUTSIDE' });
    expect(await send(moveHandler, ['missing'], { destination: '/dav/copy' })).toEqual({ status: 404, code: 'DAV_NOT_FOUND' });
    expect(calls.checked).toEqual([]);
  });
});
