import { badRequest } from '../../../lib/errors.ts';
import type { DavLocksService } from '../dav-locks.service.ts';
import { checkWrite, depthOf, located, pathOf, userOf } from '../dav-request-context.ts';
import type { DavHandler } from '../dav-responses.ts';
import type { DavService } from '../dav.service.ts';

/** DELETE: moves a file or a whole folder to the Trash, where it can be restored (docs/decisions/0027-webdav.md). */
export function deleteHandler(deps: {
  dav: Pick<DavService, 'locate' | 'toTrash'>;
  locks: Pick<DavLocksService, 'checkWrite'>;
}): DavHandler {
  return async (request, reply) => {
    const path = pathOf(request);
    const resource = await located(deps.dav, request);
    if (resource.kind !== 'file' && request.headers.depth !== undefined && depthOf(request) !== 'infinity') {
      throw badRequest('A collection is deleted with Depth: infinity', 'DAV_BAD_DEPTH');
    }
    await checkWrite(deps, request, path, [{ path, tree: true, membership: true }]);
    await deps.dav.toTrash(userOf(request), resource);
    return reply.code(204).send();
  };
}
