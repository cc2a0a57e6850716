import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ProfileResponse } from '@cloudvault/contract/accounts';
import { ErrorBody, MessageBody } from '@cloudvault/contract/common';
import { AccountOverviewResponse, ChangePasswordBody, UpdateProfileBody } from '@cloudvault/contract/profile';
import { caller } from '../../lib/auth.ts';
import type { ProfileService } from './profile.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody };

export function profileRoutes(profile: ProfileService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.put('/user/profile', { schema: { tags: ['profile'], body: UpdateProfileBody, response: { 200: ProfileResponse, ...errors } } }, async (request) => ({
      user: await profile.updateProfile(caller(request).userId, request.body),
    }));

    app.put('/user/password', { schema: { tags: ['profile'], body: ChangePasswordBody, response: { 200: MessageBody, ...errors } } }, async (request) => {
      const { userId, sessionId } = caller(request);
      await profile.changePassword(userId, sessionId, request.body);
      return { message: 'Password changed successfully!' };
    });

    app.get('/user/overview', { schema: { tags: ['profile'], response: { 200: AccountOverviewResponse, 401: ErrorBody } } }, async (request) =>
      profile.overview(caller(request).userId),
    );
  };
}
