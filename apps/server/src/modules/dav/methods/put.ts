import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { continueWithBody } from '../../../lib/early-answers.ts';
import { badRequest } from '../../../lib/errors.ts';
import type { DavLocksService } from '../dav-locks.service.ts';
import { bodyOf, checkWrite, pathOf, userOf } from '../dav-request-context.ts';
import type { DavHandler } from '../dav-responses.ts';
import type { DavService } from '../dav.service.ts';

/**
 * A PUT body's length before it comes: Content-Length, or X-Expected-Entity-Length (macOS
 * Finder's chunked bodies); undefined for a chunked body of unknown length (`curl -T -`,
 * backup tools), stored up to what the plan allows (docs/decisions/0039-webdav-bounds-and-unknown-length.md).
 */
function declaredLength(request: FastifyRequest): number | undefined {
  const declared = request.headers['content-length'] ?? request.headers['x-expected-entity-length'];
  if (declared === undefined) return request.headers['transfer-encoding'] === undefined ? 0 : undefined;
  const bytes = Number(declared);
  if (!Number.isSafeInteger(bytes) || bytes < 0) throw badRequest('X-Expected-Entity-Length must be a number of bytes', 'DAV_BAD_LENGTH');
  return bytes;
}

/** X-OC-Mtime: Unix seconds (ownCloud and Nextcloud clients, rclone), as an ISO time. */
function ocMtime(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const seconds = Number(String(header));
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 253402300799)
    throw badRequest('X-OC-Mtime must be Unix seconds', 'DAV_BAD_MTIME');
  return new Date(Math.floor(seconds) * 1000).toISOString();
}

/**
 * PUT: stores the body as a new file or a new version, through the one upload use-case
 * (docs/decisions/0042-one-upload-path.md). The route decides on `100 Continue` itself: a write the locks,
 * the quota or the plan refuse is answered before any byte of the body is read.
 */
export function putHandler(deps: { dav: Pick<DavService, 'locate' | 'put'>; locks: Pick<DavLocksService, 'checkWrite'> }): DavHandler {
  return async (request, reply) => {
    const userId = userOf(request);
    const path = pathOf(request);
    const target = await deps.dav.locate(userId, path);
    const bytes = declaredLength(request);
    await checkWrite(deps, request, path, [{ path, membership: true }]);
    const modifiedAt = ocMtime(request.headers['x-oc-mtime']);
    const stored = await deps.dav.put(userId, target, {
      body: bodyOf(request) ?? Readable.from([]),
      bytes,
      mimetype: request.headers['content-type'],
      modifiedAt,
      beforeBody: () => continueWithBody(request, reply),
      cutOff: {
        clientGone: () => request.raw.aborted || request.raw.socket.destroyed,
        answer: () => badRequest('The upload was cut off', 'UPLOAD_INCOMPLETE'),
        log: request.log,
      },
    });
    if (modifiedAt) reply.header('X-OC-MTime', 'accepted');
    return reply
      .code(stored.created ? 201 : 204)
      .header('ETag', stored.etag)
      .send();
  };
}
