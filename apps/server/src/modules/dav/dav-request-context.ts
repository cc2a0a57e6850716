import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../../lib/errors.ts';
import { parseIfHeader } from './dav-if-header.ts';
import type { DavLocksService, IfContext, WriteTarget } from './dav-locks.service.ts';
import { type DavPath, parseDavUrl } from './dav-paths.ts';
import { type DavResource, type DavService, etagOf } from './dav.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The account whose Basic credentials the request carried. */
    davUserId: string | null;
    /** The request's path under /dav/, checked before any method runs. */
    davPath: DavPath | null;
  }
}

/** Set by dav.routes.ts before a method's handler runs. */
export const userOf = (request: FastifyRequest) => request.davUserId as string;
export const pathOf = (request: FastifyRequest) => request.davPath as DavPath;
/** The body as the stream dav.routes.ts's content-type parser left it: read within a bound, or streamed to the store by PUT. */
export const bodyOf = (request: FastifyRequest) => request.body as Readable | undefined;

/** Whether the request carries a body at all (MKCOL must not). */
export const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

/** The Depth header: 0, 1 or infinity (absent means infinity, RFC 4918 section 10.2). */
export function depthOf(request: FastifyRequest): '0' | '1' | 'infinity' {
  const depth = (request.headers.depth ?? 'infinity').toString().trim().toLowerCase();
  if (depth !== '0' && depth !== '1' && depth !== 'infinity') throw badRequest('Depth must be 0, 1 or infinity', 'DAV_BAD_DEPTH');
  return depth;
}

/** The resource at the request's path, or a 404. */
export async function located(dav: Pick<DavService, 'locate'>, request: FastifyRequest): Promise<DavResource> {
  const { resource } = await dav.locate(userOf(request), pathOf(request));
  if (!resource) throw new AppError(404, 'DAV_NOT_FOUND', 'Nothing exists at this path');
  return resource;
}

/** The request's If header, and how to read what its conditions name. */
export function ifContext(dav: Pick<DavService, 'locate'>, request: FastifyRequest, path: DavPath): IfContext {
  return {
    lists: request.headers.if ? parseIfHeader(String(request.headers.if)) : undefined,
    requestPath: path,
    resolveTag(url) {
      const parsed = parseDavUrl(url, request.headers.host);
      return 'path' in parsed ? parsed.path : undefined;
    },
    etagOf: async (tagged) => etagOf((await dav.locate(userOf(request), tagged)).resource),
  };
}

/** What checking a write against the locks needs. */
export interface WriteGuard {
  dav: Pick<DavService, 'locate'>;
  locks: Pick<DavLocksService, 'checkWrite'>;
}

/** Refuses the write (DavLockedError, or 412 for an If header that fails) unless the request holds the locks guarding its targets. */
export const checkWrite = ({ dav, locks }: WriteGuard, request: FastifyRequest, path: DavPath, targets: WriteTarget[]) =>
  locks.checkWrite(userOf(request), targets, ifContext(dav, request, path));
