import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AppPasswordParams,
  AppPasswordsResponse,
  CreateAppPasswordBody,
  CreatedAppPasswordResponse,
} from '@cloudvault/contract/app-passwords';
import { AuthResponse } from '@cloudvault/contract/accounts';
import { ErrorBody } from '@cloudvault/contract/common';
import { DeviceSessionBody } from '@cloudvault/contract/sync';
import { caller } from '../../lib/auth.ts';
import type { AppPasswordsService } from './app-passwords.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody };

/** docs/api.md#app-passwords-and-webdav: signed in with a session only, never with an app password. */
export function appPasswordsRoutes(appPasswords: AppPasswordsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get(
      '/user/app-passwords',
      { schema: { tags: ['app-passwords'], response: { 200: AppPasswordsResponse, 401: ErrorBody } } },
      async (request) => appPasswords.list(caller(request).userId),
    );

    app.post(
      '/user/app-passwords',
      {
        schema: {
          tags: ['app-passwords'],
          body: CreateAppPasswordBody,
          response: { 201: CreatedAppPasswordResponse, ...errors, 409: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        const { userId, sessionId } = caller(request);
        return reply.code(201).send(await appPasswords.create(userId, request.body, { ip: request.ip, sessionId }));
      },
    );

    app.delete(
      '/user/app-passwords/:id',
      { schema: { tags: ['app-passwords'], params: AppPasswordParams, response: { 204: Type.Null(), ...errors, 404: ErrorBody } } },
      async (request, reply) => {
        await appPasswords.revoke(caller(request).userId, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}

/**
 * POST /api/auth/device-session (docs/api.md#sync): a sync client's e-mail and app password
 * for a session that ends with the app password. Not signed in: its own plugin.
 */
export function deviceSessionRoutes(appPasswords: AppPasswordsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/auth/device-session',
      {
        schema: {
          tags: ['app-passwords'],
          body: DeviceSessionBody,
          response: { 200: AuthResponse, ...errors, 403: ErrorBody, 429: ErrorBody },
        },
      },
      async (request) =>
        appPasswords.openDeviceSession(request.body, {
          ip: request.ip,
          userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
        }),
    );
  };
}
