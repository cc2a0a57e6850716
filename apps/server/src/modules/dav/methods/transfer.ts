import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../../../lib/errors.ts';
import type { DavLocksService, WriteTarget } from '../dav-locks.service.ts';
import { type DavPath, parseDavUrl } from '../dav-paths.ts';
import { checkWrite, depthOf, located, pathOf, userOf } from '../dav-request-context.ts';
import type { DavHandler } from '../dav-responses.ts';
import type { DavService } from '../dav.service.ts';

export interface TransferDeps {
  dav: Pick<DavService, 'locate' | 'transfer'>;
  locks: Pick<DavLocksService, 'checkWrite'>;
}

/** Where COPY and MOVE differ. */
export interface TransferRules {
  method: 'COPY' | 'MOVE';
  /** The Depth values a collection is taken with. */
  collectionDepths: ReadonlyArray<'0' | 'infinity'>;
  /** The source leaves its place, so the locks guarding it must be held as well as the destination's. */
  sourceChanges: boolean;
}

/** COPY or MOVE to the Destination header's path, overwriting what is there unless `Overwrite: F` (RFC 4918, sections 9.8 and 9.9). */
export function transferHandler(deps: TransferDeps, rules: TransferRules): DavHandler {
  return async (request, reply) => {
    const userId = userOf(request);
    const path = pathOf(request);
    const destinationPath = destinationOf(request);
    const overwriteHeader = String(request.headers.overwrite ?? 'T').toUpperCase();
    if (overwriteHeader !== 'T' && overwriteHeader !== 'F') throw badRequest('Overwrite must be T or F', 'DAV_BAD_OVERWRITE');
    const depth = depthOf(request);
    const source = await located(deps.dav, request);
    if (source.kind !== 'file' && !(rules.collectionDepths as readonly string[]).includes(depth)) {
      throw badRequest(`${rules.method} of a collection takes Depth: ${rules.collectionDepths.join(' or ')}`, 'DAV_BAD_DEPTH');
    }
    const destination = { ...(await deps.dav.locate(userId, destinationPath)), path: destinationPath };
    const targets: WriteTarget[] = [{ path: destinationPath, tree: true, membership: true }];
    if (rules.sourceChanges) targets.unshift({ path, tree: true, membership: true });
    await checkWrite(deps, request, path, targets);
    const { created } = await deps.dav.transfer(userId, rules.method, source, destination, {
      overwrite: overwriteHeader === 'T',
      depthInfinity: depth === 'infinity',
    });
    return reply.code(created ? 201 : 204).send();
  };
}

/** The destination of COPY and MOVE: on this host, under /dav/ (502 and 403 otherwise, RFC 4918 section 9.9.4). */
function destinationOf(request: FastifyRequest): DavPath {
  const header = request.headers.destination;
  if (typeof header !== 'string' || header === '') throw badRequest('COPY and MOVE need a Destination header', 'DAV_NO_DESTINATION');
  const parsed = parseDavUrl(header, request.headers.host);
  if ('otherHost' in parsed) throw new AppError(502, 'DAV_OTHER_SERVER', 'The destination is on another server');
  if ('outside' in parsed) throw new AppError(403, 'DAV_DESTINATION_OUTSIDE', 'The destination is outside your files');
  return parsed.path;
}
