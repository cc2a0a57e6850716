import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AuthResponse } from '@cloudvault/contract/accounts';
import { ErrorBody } from '@cloudvault/contract/common';
import {
  CreatePasskeyBody,
  Passkey,
  PasskeyAssertion,
  PasskeyOptionsResponse,
  PasskeyParams,
  PasskeysResponse,
  RenamePasskeyBody,
} from '@cloudvault/contract/passkeys';
import { caller } from '../../lib/auth.ts';
import { tooManyRequests } from '../../lib/errors.ts';
import type { PasskeysService } from './passkeys.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody };

/** docs/api.md#passkeys: the signed-in user's passkeys. */
export function passkeysRoutes(passkeys: PasskeysService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get('/user/passkeys', { schema: { tags: ['passkeys'], response: { 200: PasskeysResponse, 401: ErrorBody } } }, async (request) => ({
      passkeys: await passkeys.list(caller(request).userId),
    }));

    app.post(
      '/user/passkeys/options',
      { schema: { tags: ['passkeys'], response: { 200: PasskeyOptionsResponse, ...errors, 404: ErrorBody } } },
      async (request) => passkeys.registrationOptions(caller(request).userId),
    );

    app.post(
      '/user/passkeys',
      { schema: { tags: ['passkeys'], body: CreatePasskeyBody, response: { 201: Passkey, ...errors, 409: ErrorBody } } },
      async (request, reply) => reply.code(201).send(await passkeys.register(caller(request).userId, request.body)),
    );

    app.patch(
      '/user/passkeys/:id',
      {
        schema: {
          tags: ['passkeys'],
          params: PasskeyParams,
          body: RenamePasskeyBody,
          response: { 200: Passkey, ...errors, 404: ErrorBody },
        },
      },
      async (request) => passkeys.rename(caller(request).userId, request.params.id, request.body.name),
    );

    app.delete(
      '/user/passkeys/:id',
      {
        schema: {
          tags: ['passkeys'],
          params: PasskeyParams,
          response: { 204: Type.Null(), ...errors, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (request, reply) => {
        await passkeys.remove(caller(request).userId, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}

/** docs/api.md#passkeys: signing in with a passkey, no e-mail typed. Not signed in: its own plugin. */
export function passkeySignInRoutes(passkeys: PasskeysService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/auth/passkey/options',
      {
        schema: { tags: ['passkeys'], response: { 200: PasskeyOptionsResponse, 429: ErrorBody } },
        // Each answer stores a challenge: an anonymous client may not fill the table.
        config: {
          rateLimit: { max: 60, timeWindow: '1 minute', errorResponseBuilder: (_request, context) => tooManyRequests(context.ttl / 1000) },
        },
      },
      async () => passkeys.authenticationOptions(),
    );

    app.post(
      '/auth/passkey',
      {
        schema: { tags: ['passkeys'], body: PasskeyAssertion, response: { 200: AuthResponse, ...errors, 403: ErrorBody, 429: ErrorBody } },
      },
      async (request) =>
        passkeys.signIn(request.body, {
          ip: request.ip,
          userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
        }),
    );
  };
}
