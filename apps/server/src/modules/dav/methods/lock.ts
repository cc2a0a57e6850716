import { Readable } from 'node:stream';
import { AppError, badRequest } from '../../../lib/errors.ts';
import { MAX_LOCK_BODY_BYTES } from '../dav-limits.ts';
import { type ActiveLock, DEFAULT_LOCK_SECONDS, type DavLocksService, MAX_LOCK_SECONDS } from '../dav-locks.service.ts';
import { activeLockXml } from '../dav-properties.ts';
import { parseLockInfo } from '../dav-requests.ts';
import { bodyOf, checkWrite, depthOf, ifContext, pathOf, userOf } from '../dav-request-context.ts';
import { type DavHandler, sendXml, XML_DECLARATION, XML_TYPE } from '../dav-responses.ts';
import type { DavService } from '../dav.service.ts';
import { readBoundedBody } from '../dav-xml.ts';

const lockXml = (active: ActiveLock) =>
  `${XML_DECLARATION}<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(active)}</D:lockdiscovery></D:prop>`;

/** The Timeout header's first usable choice, within our cap (RFC 4918, section 10.7). */
function lockSeconds(header: string | undefined): number {
  for (const choice of (header ?? '').split(',').map((part) => part.trim().toLowerCase())) {
    if (choice === 'infinite') return MAX_LOCK_SECONDS;
    const match = /^second-(\d+)$/.exec(choice);
    if (match) return Math.max(1, Math.min(MAX_LOCK_SECONDS, Number(match[1])));
  }
  return DEFAULT_LOCK_SECONDS;
}

/**
 * LOCK: grants a write lock (RFC 4918, section 9.10), making an empty file at an unmapped
 * path; without a body, refreshes the lock the If header names.
 */
export function lockHandler(deps: {
  dav: Pick<DavService, 'locate' | 'put' | 'requireLockable'>;
  locks: Pick<DavLocksService, 'checkWrite' | 'lock' | 'refresh' | 'unlock'>;
}): DavHandler {
  const { dav, locks } = deps;
  return async (request, reply) => {
    const userId = userOf(request);
    const path = pathOf(request);
    const body = await readBoundedBody(bodyOf(request), MAX_LOCK_BODY_BYTES);
    const timeoutSeconds = lockSeconds(request.headers.timeout as string | undefined);
    if (body.trim() === '') {
      const refreshed = await locks.refresh(userId, path, ifContext(dav, request, path).lists, timeoutSeconds);
      return sendXml(reply, 200, lockXml(refreshed));
    }
    const info = parseLockInfo(body);
    const depth = depthOf(request);
    if (depth === '1') throw badRequest('A lock has Depth 0 or infinity', 'DAV_BAD_DEPTH');
    const target = await dav.locate(userId, path);
    await dav.requireLockable(userId, target);
    const wanted = { exclusive: info.exclusive, depthInfinity: depth === 'infinity', owner: info.owner, timeoutSeconds };
    if (!target.resource) {
      // A lock on an unmapped URL makes an empty file there (RFC 4918, section 7.3), once the lock is granted.
      if (target.parentId === undefined) throw new AppError(409, 'DAV_PARENT_MISSING', 'The parent collection does not exist');
      await checkWrite(deps, request, path, [{ path, membership: true }]);
      const active = await locks.lock(userId, path, { ...wanted, collection: false });
      try {
        await dav.put(userId, target, {
          body: Readable.from([]),
          bytes: 0,
          mimetype: undefined,
          modifiedAt: undefined,
          beforeBody: () => {},
        });
      } catch (error) {
        await locks.unlock(userId, path, active.token);
        throw error;
      }
      return reply.header('Lock-Token', `<${active.token}>`).code(201).type(XML_TYPE).send(lockXml(active));
    }
    if (request.headers.if) await checkWrite(deps, request, path, []);
    const active = await locks.lock(userId, path, { ...wanted, collection: target.resource.kind !== 'file' });
    return reply.header('Lock-Token', `<${active.token}>`).code(200).type(XML_TYPE).send(lockXml(active));
  };
}
