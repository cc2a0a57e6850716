import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AuthResponse, LoginBody, LoginErrorBody, ProfileResponse, RegisterBody } from '@cloudvault/contract/accounts';
import { ErrorBody } from '@cloudvault/contract/common';
import { caller } from '../../lib/auth.ts';
import { tooManyRequests } from '../../lib/errors.ts';
import type { AccountsService, ClientInfo } from './accounts.service.ts';

const clientInfo = (request: { ip: string; headers: Record<string, unknown> }): ClientInfo => ({
  ip: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
});

const errors = { 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 429: ErrorBody };

export function accountsRoutes(accounts: AccountsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/auth/register',
      {
        schema: { tags: ['accounts'], body: RegisterBody, response: { 201: AuthResponse, ...errors } },
        config: {
          rateLimit: {
            max: 50,
            timeWindow: '1 hour',
            errorResponseBuilder: (_request, context) => tooManyRequests(context.ttl / 1000),
          },
        },
      },
      async (request, reply) => reply.code(201).send(await accounts.register(request.body, clientInfo(request))),
    );

    app.post(
      '/auth/login',
      { schema: { tags: ['accounts'], body: LoginBody, response: { 200: AuthResponse, ...errors, 401: LoginErrorBody } } },
      async (request) => accounts.login(request.body, clientInfo(request)),
    );

    app.get(
      '/auth/profile',
      { onRequest: app.requireUser, schema: { tags: ['accounts'], response: { 200: ProfileResponse, 401: ErrorBody } } },
      async (request) => ({ user: await accounts.profile(caller(request).userId) }),
    );

    app.post(
      '/auth/logout',
      { onRequest: app.requireUser, schema: { tags: ['accounts'], response: { 204: Type.Null(), 401: ErrorBody } } },
      async (request, reply) => {
        await accounts.logout(caller(request).sessionId);
        return reply.code(204).send(null);
      },
    );
  };
}
