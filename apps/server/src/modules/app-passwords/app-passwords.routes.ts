import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AppPasswordParams,
  AppPasswordsResponse,
  CreateAppPasswordBody,
  CreatedAppPasswordResponse,
} from '@cloudvault/contract/app-passwords';
import { ErrorBody } from '@cloudvault/contract/common';
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
      async (request, reply) => reply.code(201).send(await appPasswords.create(caller(request).userId, request.body, request.ip)),
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
