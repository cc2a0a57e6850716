import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, MessageBody } from '@cloudvault/contract/common';
import { RecoveryCodesResponse, TwoFactorCodeBody, TwoFactorDisableBody, TwoFactorSetupResponse } from '@cloudvault/contract/profile';
import { caller } from '../../lib/auth.ts';
import type { TwoFactorService } from './two-factor.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody };

export function twoFactorRoutes(twoFactor: TwoFactorService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.post(
      '/auth/2fa/setup',
      { schema: { tags: ['two-factor'], response: { 200: TwoFactorSetupResponse, ...errors } } },
      async (request) => twoFactor.setup(caller(request).userId),
    );

    app.post(
      '/auth/2fa/enable',
      { schema: { tags: ['two-factor'], body: TwoFactorCodeBody, response: { 200: RecoveryCodesResponse, ...errors } } },
      async (request) => twoFactor.enable(caller(request).userId, request.body.code),
    );

    app.post(
      '/auth/2fa/disable',
      { schema: { tags: ['two-factor'], body: TwoFactorDisableBody, response: { 200: MessageBody, ...errors, 429: ErrorBody } } },
      async (request) => {
        const { userId, sessionId } = caller(request);
        await twoFactor.disable(userId, request.body, { ip: request.ip, sessionId });
        return { message: 'Two-factor sign-in is off' };
      },
    );
  };
}
