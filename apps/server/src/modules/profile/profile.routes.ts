import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ProfileResponse } from '@cloudvault/contract/accounts';
import { ErrorBody } from '@cloudvault/contract/common';
import { AccountOverviewResponse, ChangePasswordBody, ChangePasswordResponse, UpdateProfileBody } from '@cloudvault/contract/profile';
import { caller } from '../../lib/auth.ts';
import type { ProfileService } from './profile.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody };

export function profileRoutes(profile: ProfileService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.put(
      '/user/profile',
      { schema: { tags: ['profile'], body: UpdateProfileBody, response: { 200: ProfileResponse, ...errors } } },
      async (request) => ({
        user: await profile.updateProfile(caller(request).userId, request.body),
      }),
    );

    app.put(
      '/user/password',
      { schema: { tags: ['profile'], body: ChangePasswordBody, response: { 200: ChangePasswordResponse, ...errors } } },
      async (request) => {
        const { userId, sessionId } = caller(request);
        const { appPasswordsRemaining } = await profile.changePassword(userId, sessionId, request.body);
        return { message: 'Password changed successfully!', appPasswordsRemaining };
      },
    );

    app.get(
      '/user/overview',
      { schema: { tags: ['profile'], response: { 200: AccountOverviewResponse, 401: ErrorBody } } },
      async (request) => profile.overview(caller(request).userId),
    );
  };
}
