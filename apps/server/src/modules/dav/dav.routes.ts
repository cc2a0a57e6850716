import type { FastifyInstance, HTTPMethods, RouteShorthandOptions } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import type { AppPasswordsService } from '../app-passwords/app-passwords.service.ts';
import type { DownloadResponses } from '../downloads/download-responses.ts';
import { DavLockedError, type DavLocksService } from './dav-locks.service.ts';
import { DAV_PREFIX, parseDavPath } from './dav-paths.ts';
import { type DavHandler, errorXml, sendXml } from './dav-responses.ts';
import type { DavService } from './dav.service.ts';
import { escapeXml } from './dav-xml.ts';
import { copyHandler } from './methods/copy.ts';
import { deleteHandler } from './methods/delete.ts';
import { getHandler } from './methods/get.ts';
import { lockHandler } from './methods/lock.ts';
import { mkcolHandler } from './methods/mkcol.ts';
import { moveHandler } from './methods/move.ts';
import { optionsHandler } from './methods/options.ts';
import { propfindHandler } from './methods/propfind.ts';
import { proppatchHandler } from './methods/proppatch.ts';
import { putHandler } from './methods/put.ts';
import { unlockHandler } from './methods/unlock.ts';

const askForCredentials = (message: string) =>
  new AppError(401, 'UNAUTHORIZED', message, {}, { 'WWW-Authenticate': 'Basic realm="CloudVault WebDAV", charset="UTF-8"' });

function basicCredentials(header: string | undefined): { email: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { email: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * What every method shares once authenticated: a path that parses (a 400 otherwise, whatever
 * the method), and a write refused by a lock answered as RFC 4918's lock-token-submitted.
 */
function withPathAndLocks(handler: DavHandler): DavHandler {
  return async (request, reply) => {
    try {
      request.davPath = parseDavPath(request.url);
      return await handler(request, reply);
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
}

/**
 * WebDAV at /dav/ (RFC 4918 classes 1 and 2, RFC 4331 quota): the caller's My Files,
 * every request authenticated with HTTP Basic (e-mail and app password), each method
 * answered by its handler in methods/. docs/decisions/0027-webdav.md says why it is built this way.
 */
export function davRoutes(deps: {
  dav: DavService;
  locks: DavLocksService;
  downloads: DownloadResponses;
  /** E-mail and app password (or the account password while two-factor is off); failures count toward the sign-in limits. */
  authenticateBasic: AppPasswordsService['authenticateBasic'];
}) {
  const methods: Array<{ method: HTTPMethods | HTTPMethods[]; handler: DavHandler; options?: RouteShorthandOptions }> = [
    { method: 'OPTIONS', handler: optionsHandler },
    { method: ['GET', 'HEAD'], handler: getHandler(deps) },
    // Refused on its headers before any byte of its body is read (docs/decisions/0018-early-answers.md).
    { method: 'PUT', handler: putHandler(deps), options: { config: { decidesContinue: true } } },
    { method: 'DELETE', handler: deleteHandler(deps) },
    { method: 'PROPFIND', handler: propfindHandler(deps) },
    { method: 'PROPPATCH', handler: proppatchHandler(deps) },
    { method: 'MKCOL', handler: mkcolHandler(deps) },
    { method: 'COPY', handler: copyHandler(deps) },
    { method: 'MOVE', handler: moveHandler(deps) },
    { method: 'LOCK', handler: lockHandler(deps) },
    { method: 'UNLOCK', handler: unlockHandler(deps) },
  ];

  return async (app: FastifyInstance) => {
    // Fastify 5 routes WebDAV's methods once they are declared; each may carry a body.
    for (const method of ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK']) {
      if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
    }
    // Bodies reach the handlers as streams: PUT streams to the store, the rest read within a bound.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    app.decorateRequest('davUserId', null);
    app.decorateRequest('davPath', null);

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

    for (const url of [DAV_PREFIX, `${DAV_PREFIX}/*`]) {
      for (const { method, handler, options } of methods) app.route({ ...options, method, url, handler: withPathAndLocks(handler) });
    }
  };
}
