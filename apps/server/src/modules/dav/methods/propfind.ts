import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../lib/errors.ts';
import { MAX_PROPFIND_EXTRA_BYTES } from '../dav-limits.ts';
import { type ActiveLock, type DavLocksService, lockCovers, presentLock } from '../dav-locks.service.ts';
import { pathKey } from '../dav-paths.ts';
import { needs, propfindResponse } from '../dav-properties.ts';
import { propfindExtraBytes } from '../dav-propfind-budget.ts';
import { parsePropfind } from '../dav-requests.ts';
import { bodyOf, depthOf, located, userOf } from '../dav-request-context.ts';
import { type DavHandler, errorXml, sendXml, XML_DECLARATION, XML_TYPE } from '../dav-responses.ts';
import { type DavResource, type DavService, resourceId } from '../dav.service.ts';
import { readBoundedBody } from '../dav-xml.ts';

/** Resources per write of a streamed multistatus, and per query of their dead properties. */
const RESPONSE_BATCH = 500;

type PropfindDeps = {
  dav: Pick<DavService, 'locate' | 'quota' | 'deadPropertyBytes' | 'memberCount' | 'deadProperties' | 'members'>;
  locks: Pick<DavLocksService, 'allLocks'>;
};

/**
 * PROPFIND: the properties of a resource and, with Depth: 1, of its members, streamed as
 * they are read. Depth: infinity is refused with propfind-finite-depth, as RFC 4918
 * section 9.1 lets a server do, so one answer never walks a whole tree.
 */
export function propfindHandler(deps: PropfindDeps): DavHandler {
  return async (request, reply) => {
    const depth = depthOf(request);
    if (depth === 'infinity') return sendXml(reply, 403, errorXml('<D:propfind-finite-depth/>'));
    const body = await readBoundedBody(bodyOf(request));
    const resource = await located(deps.dav, request);
    const responses = propfindResponses(deps, userOf(request), resource, depth, body);
    // The first piece is produced before the status is sent: a malformed body is still a 400.
    const first = await responses.next();
    return streamMultistatus(
      request,
      reply,
      (async function* () {
        if (!first.done) yield first.value;
        yield* responses;
      })(),
    );
  };
}

/** The `<D:response>` of the resource, then of its members in batches; a 507 first when dead properties and locks would pass the bound. */
async function* propfindResponses(
  { dav, locks }: PropfindDeps,
  userId: string,
  root: DavResource,
  depth: '0' | '1',
  body: string,
): AsyncGenerator<string> {
  const propfind = parsePropfind(body);
  const wants = needs(propfind);
  const quota = wants.quota ? await dav.quota(userId, root) : undefined;
  const userLocks = wants.locks ? await locks.allLocks(userId) : [];
  const listsMembers = depth === '1' && root.kind !== 'file';
  const extraBytes = propfindExtraBytes(root, {
    listsMembers,
    deadBytes: wants.dead ? await dav.deadPropertyBytes(userId, root, listsMembers) : 0,
    memberCount: listsMembers && userLocks.length > 0 ? await dav.memberCount(userId, root) : 0,
    locks: userLocks,
  });
  if (extraBytes > MAX_PROPFIND_EXTRA_BYTES) {
    throw new AppError(
      507,
      'DAV_ANSWER_TOO_LARGE',
      `The properties and locks of this listing pass the ${MAX_PROPFIND_EXTRA_BYTES / 1024 / 1024} MiB one answer may carry: ask with Depth: 0, or for named properties`,
    );
  }
  const render = async (batch: DavResource[]) => {
    const dead = wants.dead ? await dav.deadProperties(userId, batch) : new Map();
    return batch
      .map((resource) => {
        const key = userLocks.length > 0 ? pathKey(resource.path) : '';
        const covering: ActiveLock[] = userLocks.length > 0 ? userLocks.filter((lock) => lockCovers(lock, key)).map(presentLock) : [];
        return propfindResponse(resource, propfind, { dead: dead.get(resourceId(resource)) ?? [], locks: covering, quota });
      })
      .join('');
  };
  yield await render([root]);
  if (depth === '0' || root.kind === 'file') return;
  let batch: DavResource[] = [];
  for await (const member of dav.members(userId, root)) {
    batch.push(member);
    if (batch.length === RESPONSE_BATCH) {
      yield await render(batch);
      batch = [];
    }
  }
  if (batch.length > 0) yield await render(batch);
}

/**
 * Writes a multistatus as it is produced: pieces are gathered up to a batch and written
 * with the socket's backpressure, so a listing of any size holds one batch.
 */
async function streamMultistatus(request: FastifyRequest, reply: FastifyReply, responses: AsyncIterable<string>): Promise<FastifyReply> {
  reply.hijack();
  const response = reply.raw;
  response.writeHead(207, { ...reply.getHeaders(), 'content-type': XML_TYPE } as Record<string, string>);
  const write = (text: string) =>
    response.write(text) ? Promise.resolve() : new Promise<void>((resolve) => response.once('drain', resolve));
  try {
    await write(`${XML_DECLARATION}<D:multistatus xmlns:D="DAV:">`);
    for await (const piece of responses) {
      if (response.destroyed) return reply;
      await write(piece);
    }
    response.end('</D:multistatus>\n');
  } catch (error) {
    // The status is out: only cutting the connection tells the client the answer is incomplete.
    request.log.error({ err: error }, 'PROPFIND failed after its answer began');
    response.destroy();
  }
  return reply;
}
