import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ForgotPasswordBody, ProfileResponse, ResetPasswordBody, VerifyEmailBody } from '@cloudvault/contract/accounts';
import { ErrorBody, MessageBody } from '@cloudvault/contract/common';
import { caller } from '../../lib/auth.ts';
import { FORGOT_MESSAGE, RESEND_MESSAGE, RESET_MESSAGE, type AccountTokensService } from './account-tokens.service.ts';

const errors = { 400: ErrorBody, 429: ErrorBody };

/** E-mail verification and password recovery (docs/api.md#email-verification). */
export function accountTokensRoutes(accountTokens: AccountTokensService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/auth/verify-email',
      { schema: { tags: ['accounts'], body: VerifyEmailBody, response: { 200: ProfileResponse, ...errors } } },
      async (request) => ({
        user: await accountTokens.verifyEmail(request.body.token),
      }),
    );

    app.post(
      '/auth/resend-verification',
      { onRequest: app.requireUser, schema: { tags: ['accounts'], response: { 202: MessageBody, 401: ErrorBody, ...errors } } },
      async (request, reply) => {
        await accountTokens.resendVerification(caller(request).userId);
        return reply.code(202).send({ message: RESEND_MESSAGE });
      },
    );

    app.post(
      '/auth/forgot-password',
      { schema: { tags: ['accounts'], body: ForgotPasswordBody, response: { 202: MessageBody, ...errors } } },
      async (request, reply) => {
        await accountTokens.forgotPassword(request.body, request.ip);
        return reply.code(202).send({ message: FORGOT_MESSAGE });
      },
    );

    app.post(
      '/auth/reset-password',
      { schema: { tags: ['accounts'], body: ResetPasswordBody, response: { 200: MessageBody, ...errors } } },
      async (request) => {
        await accountTokens.resetPassword(request.body);
        return { message: RESET_MESSAGE };
      },
    );
  };
}
