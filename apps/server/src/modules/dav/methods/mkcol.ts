import { AppError } from '../../../lib/errors.ts';
import type { DavLocksService } from '../dav-locks.service.ts';
import { checkWrite, hasBody, pathOf, userOf } from '../dav-request-context.ts';
import type { DavHandler } from '../dav-responses.ts';
import type { DavService } from '../dav.service.ts';

/** MKCOL: makes a folder at an unmapped path whose parent exists (RFC 4918, section 9.3). */
export function mkcolHandler(deps: { dav: Pick<DavService, 'locate' | 'mkcol'>; locks: Pick<DavLocksService, 'checkWrite'> }): DavHandler {
  return async (request, reply) => {
    const path = pathOf(request);
    if (hasBody(request)) throw new AppError(415, 'DAV_UNSUPPORTED_BODY', 'MKCOL takes no body');
    await checkWrite(deps, request, path, [{ path, membership: true }]);
    await deps.dav.mkcol(userOf(request), path);
    return reply.code(201).send();
  };
}
