import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AuthResponse } from '@cloudvault/contract/accounts';
import { ErrorBody } from '@cloudvault/contract/common';
import { HandoffBody, LinkResponse, ReauthBody, ReauthResponse, SignInMethods } from '@cloudvault/contract/single-sign-on';
import { caller } from '../../lib/auth.ts';
import { AppError, tooManyRequests } from '../../lib/errors.ts';
import { FLOW_LIFETIME_MS, type SingleSignOnService, SingleSignOnRefused } from './single-sign-on.service.ts';

/** The browser's half of a flow: its id, sent back only to these routes, and only by the browser that began it. */
const FLOW_COOKIE = 'cloudvault_sso';
const COOKIE_PATH = '/api/auth/oidc';

function flowCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === FLOW_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

/** A path with one more query parameter. */
const withParam = (path: string, name: string, value: string) =>
  `${path}${path.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}`;

/**
 * Single sign-on's routes (docs/api.md#single-sign-on). The start and the callback are
 * browser navigations: they answer with redirects, and every refusal lands on a page of the
 * app that says why (never an error page).
 */
export function singleSignOnRoutes(sso: SingleSignOnService, options: { publicUrl: string }): FastifyPluginAsyncTypebox {
  // Lax: the provider's redirect back is a top-level navigation from another site, which Lax lets carry it.
  const secure = options.publicUrl.startsWith('https:') ? '; Secure' : '';
  const setFlowCookie = (reply: FastifyReply, flowId: string) =>
    reply.header(
      'Set-Cookie',
      `${FLOW_COOKIE}=${flowId}; Path=${COOKIE_PATH}; Max-Age=${FLOW_LIFETIME_MS / 1000}; HttpOnly; SameSite=Lax${secure}`,
    );
  const clearFlowCookie = (reply: FastifyReply) =>
    reply.header('Set-Cookie', `${FLOW_COOKIE}=; Path=${COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);

  // Each start writes a flow row: a client beginning sign-ins in a loop is slowed, not the database filled.
  const starts = {
    rateLimit: {
      max: 60,
      timeWindow: '1 minute',
      errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) => tooManyRequests(context.ttl / 1000),
    },
  };

  return async (app) => {
    app.get('/auth/methods', { schema: { tags: ['single-sign-on'], response: { 200: SignInMethods } } }, async () => sso.methods());

    app.get(
      '/auth/oidc/start',
      {
        config: starts,
        schema: { tags: ['single-sign-on'], querystring: Type.Object({ next: Type.Optional(Type.String({ maxLength: 512 })) }) },
      },
      async (request, reply) => {
        try {
          const { flowId, location } = await sso.begin({ next: request.query.next });
          return setFlowCookie(reply, flowId).redirect(location, 302);
        } catch (error) {
          if (error instanceof AppError && error.status === 503) return reply.redirect(withParam('/login', 'sso', 'unavailable'), 302);
          throw error;
        }
      },
    );

    app.get('/auth/oidc/callback', { schema: { tags: ['single-sign-on'], hide: true } }, async (request, reply) => {
      // The address the provider redirected to, as registered there (PUBLIC_URL), with its answer.
      const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      try {
        const done = await sso.finish(flowCookie(request), new URL(`${options.publicUrl}/api/auth/oidc/callback${search}`));
        if (!done.handoffCode) return clearFlowCookie(reply).redirect(withParam(done.next, 'sso', 'reauthenticated'), 302);
        // The code rides in the fragment: it never reaches a server log or a Referer. The
        // cookie stays: the code is traded for the session only with it.
        return reply.redirect(`/login/single-sign-on#code=${done.handoffCode}&next=${encodeURIComponent(done.next)}`, 302);
      } catch (error) {
        clearFlowCookie(reply);
        if (!(error instanceof SingleSignOnRefused)) {
          request.log.error({ err: error }, 'single sign-on callback failed');
          return reply.redirect(withParam('/login', 'sso', 'unavailable'), 302);
        }
        if (error.reason !== 'expired') request.log.warn({ err: error.cause ?? error, reason: error.reason }, 'single sign-on refused');
        return reply.redirect(withParam(error.next ?? '/login', 'sso', error.reason), 302);
      }
    });

    app.post(
      '/auth/oidc/session',
      { schema: { tags: ['single-sign-on'], body: HandoffBody, response: { 200: AuthResponse, 400: ErrorBody, 403: ErrorBody } } },
      async (request, reply) => {
        const session = await sso.exchange(request.body.code, flowCookie(request), {
          ip: request.ip,
          userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
        });
        clearFlowCookie(reply);
        return session;
      },
    );

    app.post(
      '/auth/oidc/reauth',
      {
        onRequest: app.requireUser,
        schema: {
          tags: ['single-sign-on'],
          body: ReauthBody,
          response: { 200: ReauthResponse, 401: ErrorBody, 404: ErrorBody, 503: ErrorBody },
        },
      },
      async (request, reply) => {
        const { flowId, location } = await sso.begin({ next: request.body.next, reauthSessionId: caller(request).sessionId });
        setFlowCookie(reply, flowId);
        return { location };
      },
    );

    app.get(
      '/auth/oidc/link',
      { onRequest: app.requireUser, schema: { tags: ['single-sign-on'], response: { 200: LinkResponse, 401: ErrorBody } } },
      async (request) => sso.link(caller(request).userId),
    );
  };
}
