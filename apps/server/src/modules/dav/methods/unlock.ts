import { AppError, badRequest } from '../../../lib/errors.ts';
import type { DavLocksService } from '../dav-locks.service.ts';
import { pathOf, userOf } from '../dav-request-context.ts';
import { type DavHandler, errorXml, sendXml } from '../dav-responses.ts';

/** UNLOCK: releases the lock the Lock-Token header names, if it covers the request's path (RFC 4918, section 9.11). */
export function unlockHandler(deps: { locks: Pick<DavLocksService, 'unlock'> }): DavHandler {
  return async (request, reply) => {
    const token = /^\s*<([^>]+)>\s*$/.exec(String(request.headers['lock-token'] ?? ''))?.[1];
    if (!token) throw badRequest('UNLOCK needs a Lock-Token header', 'DAV_NO_LOCK_TOKEN');
    try {
      await deps.locks.unlock(userOf(request), pathOf(request), token);
    } catch (error) {
      if (error instanceof AppError && error.code === 'DAV_LOCK_TOKEN_MISMATCH')
        return sendXml(reply, 409, errorXml('<D:lock-token-matches-request-uri/>'));
      throw error;
    }
    return reply.code(204).send();
  };
}
