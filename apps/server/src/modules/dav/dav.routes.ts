import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { continueWithBody } from '../../lib/early-answers.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import type { AppPasswordsService } from '../app-passwords/app-passwords.service.ts';
import type { DownloadResponses } from '../downloads/download-responses.ts';
import { parseIfHeader } from './dav-if-header.ts';
import {
  type ActiveLock,
  DavLockedError,
  DEFAULT_LOCK_SECONDS,
  type DavLocksService,
  type IfContext,
  lockCovers,
  MAX_LOCK_SECONDS,
  presentLock,
  type WriteTarget,
} from './dav-locks.service.ts';
import { DAV_PREFIX, type DavPath, parseDavPath, parseDavUrl, pathKey } from './dav-paths.ts';
import { activeLockXml, needs, propfindResponse } from './dav-properties.ts';
import { parseLockInfo, parsePropertyUpdate, parsePropfind } from './dav-requests.ts';
import { type DavResource, type DavService, etagOf, fileEtag, resourceId } from './dav.service.ts';
import { escapeXml, readBoundedBody } from './dav-xml.ts';
import { MAX_LOCK_BODY_BYTES, MAX_PROPFIND_EXTRA_BYTES } from './dav-limits.ts';
import { propfindExtraBytes } from './dav-propfind-budget.ts';

declare module 'fastify' {
  interface FastifyRequest {
    davUserId: string | null;
  }
}

const XML_TYPE = 'application/xml; charset=utf-8';
const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n';
const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';
const METHODS: HTTPMethods[] = ['OPTIONS', 'GET', 'HEAD', 'DELETE', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'];
/** Resources per write of a streamed multistatus, and per query of their dead properties. */
const RESPONSE_BATCH = 500;

const askForCredentials = (message: string) =>
  new AppError(401, 'UNAUTHORIZED', message, {}, { 'WWW-Authenticate': 'Basic realm="CloudVault WebDAV", charset="UTF-8"' });

function basicCredentials(header: string | undefined): { email: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { email: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** An XML error body naming the precondition that failed (RFC 4918, section 16). */
const errorXml = (condition: string) => `${XML_DECLARATION}<D:error xmlns:D="DAV:">${condition}</D:error>`;

function sendXml(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type(XML_TYPE).send(body);
}

/** Whether the request carries a body at all (MKCOL must not). */
const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

/** The Depth header: 0, 1 or infinity (absent means infinity, RFC 4918 section 10.2). */
function depthOf(request: FastifyRequest): '0' | '1' | 'infinity' {
  const depth = (request.headers.depth ?? 'infinity').toString().trim().toLowerCase();
  if (depth !== '0' && depth !== '1' && depth !== 'infinity') throw badRequest('Depth must be 0, 1 or infinity', 'DAV_BAD_DEPTH');
  return depth;
}

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

/**
 * WebDAV at /dav/ (RFC 4918 classes 1 and 2, RFC 4331 quota): the caller's My Files,
 * every request authenticated with HTTP Basic (e-mail and app password).
 * docs/decisions/0027-webdav.md says why it is built this way.
 */
export function davRoutes(deps: {
  dav: DavService;
  locks: DavLocksService;
  downloads: DownloadResponses;
  /** E-mail and app password (or the account password while two-factor is off); failures count toward the sign-in limits. */
  authenticateBasic: AppPasswordsService['authenticateBasic'];
}) {
  const { dav, locks, downloads } = deps;
  return async (app: FastifyInstance) => {
    // Fastify 5 routes WebDAV's methods once they are declared; each may carry a body.
    for (const method of ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK']) {
      if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
    }
    // Bodies reach the handlers as streams: PUT streams to the store, the rest read within a bound.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    app.decorateRequest('davUserId', null);

    app.addHook('onRequest', async (request) => {
      const credentials = basicCredentials(request.headers.authorization);
      if (!credentials) throw askForCredentials('Sign in with your e-mail and an app password');
      try {
        request.davUserId = (
          await deps.authenticateBasic({ ...credentials, clientAddress: request.ip, userAgent: request.headers['user-agent'] })
        ).userId;
      } catch (error) {
        // A client asks again, or asks its user, only when told how to authenticate.
        if (error instanceof AppError && error.status === 401) throw askForCredentials(error.message);
        throw error;
      }
    });

    const userOf = (request: FastifyRequest) => request.davUserId as string;
    const pathOf = (request: FastifyRequest) => parseDavPath(request.url);
    const bodyOf = (request: FastifyRequest) => request.body as Readable | undefined;

    const ifContext = (request: FastifyRequest, path: DavPath): IfContext => ({
      lists: request.headers.if ? parseIfHeader(String(request.headers.if)) : undefined,
      requestPath: path,
      resolveTag(url) {
        const parsed = parseDavUrl(url, request.headers.host);
        return 'path' in parsed ? parsed.path : undefined;
      },
      etagOf: async (path) => etagOf((await dav.locate(userOf(request), path)).resource),
    });
    const checkWrite = (request: FastifyRequest, path: DavPath, targets: WriteTarget[]) =>
      locks.checkWrite(userOf(request), targets, ifContext(request, path));

    async function located(request: FastifyRequest): Promise<DavResource> {
      const { resource } = await dav.locate(userOf(request), pathOf(request));
      if (!resource) throw new AppError(404, 'DAV_NOT_FOUND', 'Nothing exists at this path');
      return resource;
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

    async function* propfindResponses(userId: string, root: DavResource, depth: '0' | '1', body: string): AsyncGenerator<string> {
      const propfind = parsePropfind(body);
      const wants = needs(propfind);
      const quota = wants.quota ? await dav.quota(userId) : undefined;
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
        const dead = wants.dead ? await dav.deadProperties(userId, batch.map(resourceId)) : new Map();
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

    async function handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
      const userId = userOf(request);
      const path = pathOf(request);
      switch (request.method) {
        case 'OPTIONS':
          return reply.code(200).headers({ DAV: '1, 2', 'MS-Author-Via': 'DAV', Allow: ALLOW, 'Accept-Ranges': 'bytes' }).send();

        case 'GET':
        case 'HEAD': {
          const resource = await located(request);
          if (resource.kind !== 'file') {
            return reply.code(200).type('text/plain; charset=utf-8').send('This is a WebDAV collection: list it with PROPFIND.\n');
          }
          reply.header('Last-Modified', new Date(resource.file.updated_at).toUTCString());
          // Bytes stream through this node, never as a redirect to S3: a WebDAV client may
          // not follow one, or may send it our credentials (docs/decisions/0027-webdav.md).
          return downloads.sendFile(request, reply, resource.file, { redirect: false, etag: fileEtag(resource.file) });
        }

        case 'PROPFIND': {
          const depth = depthOf(request);
          if (depth === 'infinity') return sendXml(reply, 403, errorXml('<D:propfind-finite-depth/>'));
          const body = await readBoundedBody(bodyOf(request));
          const resource = await located(request);
          const responses = propfindResponses(userId, resource, depth, body);
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
        }

        case 'PROPPATCH': {
          const body = await readBoundedBody(bodyOf(request));
          const resource = await located(request);
          const changes = parsePropertyUpdate(body);
          await checkWrite(request, path, [{ path }]);
          const outcomes = await dav.proppatch(userId, resource, changes);
          const byStatus = new Map<number, typeof outcomes>();
          for (const outcome of outcomes) byStatus.set(outcome.status, [...(byStatus.get(outcome.status) ?? []), outcome]);
          const propstats = [...byStatus].map(
            ([status, properties]) =>
              `<D:propstat><D:prop>${properties.map((p) => (p.namespace === 'DAV:' ? `<D:${p.name}/>` : `<${p.name} xmlns="${escapeXml(p.namespace)}"/>`)).join('')}</D:prop>` +
              `<D:status>HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ''}</D:status></D:propstat>`,
          );
          const href = `<D:href>${escapeXml(request.url.split('?')[0] as string)}</D:href>`;
          return sendXml(
            reply,
            207,
            `${XML_DECLARATION}<D:multistatus xmlns:D="DAV:"><D:response>${href}${propstats.join('')}</D:response></D:multistatus>`,
          );
        }

        case 'MKCOL': {
          if (hasBody(request)) throw new AppError(415, 'DAV_UNSUPPORTED_BODY', 'MKCOL takes no body');
          await checkWrite(request, path, [{ path, membership: true }]);
          await dav.mkcol(userId, path);
          return reply.code(201).send();
        }

        case 'DELETE': {
          const resource = await located(request);
          if (resource.kind !== 'file' && request.headers.depth !== undefined && depthOf(request) !== 'infinity') {
            throw badRequest('A collection is deleted with Depth: infinity', 'DAV_BAD_DEPTH');
          }
          await checkWrite(request, path, [{ path, tree: true, membership: true }]);
          await dav.toTrash(userId, resource);
          return reply.code(204).send();
        }

        case 'COPY':
        case 'MOVE': {
          const destinationPath = destinationOf(request);
          const overwriteHeader = String(request.headers.overwrite ?? 'T').toUpperCase();
          if (overwriteHeader !== 'T' && overwriteHeader !== 'F') throw badRequest('Overwrite must be T or F', 'DAV_BAD_OVERWRITE');
          const depth = depthOf(request);
          const source = await located(request);
          if (source.kind !== 'file' && (depth === '1' || (request.method === 'MOVE' && depth !== 'infinity'))) {
            throw badRequest(
              `${request.method} of a collection takes Depth: infinity${request.method === 'COPY' ? ' or 0' : ''}`,
              'DAV_BAD_DEPTH',
            );
          }
          const destination = { ...(await dav.locate(userId, destinationPath)), path: destinationPath };
          const targets: WriteTarget[] = [{ path: destinationPath, tree: true, membership: true }];
          if (request.method === 'MOVE') targets.unshift({ path, tree: true, membership: true });
          await checkWrite(request, path, targets);
          const { created } = await dav.transfer(userId, request.method, source, destination, {
            overwrite: overwriteHeader === 'T',
            depthInfinity: depth === 'infinity',
          });
          return reply.code(created ? 201 : 204).send();
        }

        case 'LOCK':
          return lock(request, reply, userId, path);

        case 'UNLOCK': {
          const token = /^\s*<([^>]+)>\s*$/.exec(String(request.headers['lock-token'] ?? ''))?.[1];
          if (!token) throw badRequest('UNLOCK needs a Lock-Token header', 'DAV_NO_LOCK_TOKEN');
          try {
            await locks.unlock(userId, path, token);
          } catch (error) {
            if (error instanceof AppError && error.code === 'DAV_LOCK_TOKEN_MISMATCH')
              return sendXml(reply, 409, errorXml('<D:lock-token-matches-request-uri/>'));
            throw error;
          }
          return reply.code(204).send();
        }

        default:
          return reply
            .code(405)
            .header('Allow', ALLOW)
            .send({ error: 'This method is not supported here', code: 'DAV_METHOD_NOT_ALLOWED' });
      }
    }

    async function lock(request: FastifyRequest, reply: FastifyReply, userId: string, path: DavPath): Promise<FastifyReply> {
      const body = await readBoundedBody(bodyOf(request), MAX_LOCK_BODY_BYTES);
      const timeoutSeconds = lockSeconds(request.headers.timeout as string | undefined);
      const lockXml = (active: ActiveLock) =>
        `${XML_DECLARATION}<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(active)}</D:lockdiscovery></D:prop>`;
      if (body.trim() === '') {
        const refreshed = await locks.refresh(userId, path, ifContext(request, path).lists, timeoutSeconds);
        return sendXml(reply, 200, lockXml(refreshed));
      }
      const info = parseLockInfo(body);
      const depth = depthOf(request);
      if (depth === '1') throw badRequest('A lock has Depth 0 or infinity', 'DAV_BAD_DEPTH');
      const target = await dav.locate(userId, path);
      const wanted = { exclusive: info.exclusive, depthInfinity: depth === 'infinity', owner: info.owner, timeoutSeconds };
      if (!target.resource) {
        // A lock on an unmapped URL makes an empty file there (RFC 4918, section 7.3), once the lock is granted.
        if (target.parentId === undefined) throw new AppError(409, 'DAV_PARENT_MISSING', 'The parent collection does not exist');
        await checkWrite(request, path, [{ path, membership: true }]);
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
      if (request.headers.if) await checkWrite(request, path, []);
      const active = await locks.lock(userId, path, { ...wanted, collection: target.resource.kind !== 'file' });
      return reply.header('Lock-Token', `<${active.token}>`).code(200).type(XML_TYPE).send(lockXml(active));
    }

    async function handleWithPreconditions(request: FastifyRequest, reply: FastifyReply) {
      try {
        return await handle(request, reply);
      } catch (error) {
        if (error instanceof DavLockedError) {
          return sendXml(
            reply,
            423,
            errorXml(`<D:lock-token-submitted><D:href>${escapeXml(error.lockRoot)}</D:href></D:lock-token-submitted>`),
          );
        }
        throw error;
      }
    }

    async function put(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
      const userId = userOf(request);
      const path = pathOf(request);
      const target = await dav.locate(userId, path);
      const bytes = declaredLength(request);
      await checkWrite(request, path, [{ path, membership: true }]);
      const modifiedAt = ocMtime(request.headers['x-oc-mtime']);
      const stored = await dav.put(userId, target, {
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
    }

    const putWithPreconditions = async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await put(request, reply);
      } catch (error) {
        if (error instanceof DavLockedError) {
          return sendXml(
            reply,
            423,
            errorXml(`<D:lock-token-submitted><D:href>${escapeXml(error.lockRoot)}</D:href></D:lock-token-submitted>`),
          );
        }
        throw error;
      }
    };

    for (const url of [DAV_PREFIX, `${DAV_PREFIX}/*`]) {
      app.route({ method: METHODS, url, handler: handleWithPreconditions });
      // Refused on its headers before any byte of its body is read (docs/decisions/0018-early-answers.md).
      app.route({ method: 'PUT', url, config: { decidesContinue: true }, handler: putWithPreconditions });
    }
  };
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  403: 'Forbidden',
  409: 'Conflict',
  424: 'Failed Dependency',
  507: 'Insufficient Storage',
};
