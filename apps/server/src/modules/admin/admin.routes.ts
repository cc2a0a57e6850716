import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  AdminActionBody,
  AdminAuditQuery,
  AdminAuditResponse,
  AdminDeleteUserBody,
  AdminStatsResponse,
  AdminUserDetailResponse,
  AdminUserParams,
  AdminUserPatchBody,
  AdminUserResponse,
  AdminUsersQuery,
  AdminUsersResponse,
} from '@cloudvault/contract/admin';
import { ErrorBody, MessageBody } from '@cloudvault/contract/common';
import { caller } from '../../lib/auth.ts';
import { emptyBodyAsObject } from '../../lib/optional-body.ts';
import { type AdminService, notAnOperator } from './admin.service.ts';
import type { SignedInOperator } from './audit-rows.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };
const tags = ['admin'];

/**
 * /api/admin (docs/decisions/0029-operator-console.md): 401 signed out, 403 for anyone but
 * an operator, checked on every request (the role is read fresh, so a revoke applies at once).
 */
export function adminRoutes(admin: AdminService): FastifyPluginAsyncTypebox {
  const operator = (request: FastifyRequest): Promise<SignedInOperator> => admin.operator(caller(request).userId);

  return async (app) => {
    app.addHook('onRequest', app.requireUser);
    app.addHook('onRequest', async (request) => {
      if (!(await admin.isOperator(caller(request).userId))) throw notAnOperator();
    });

    app.get(
      '/admin/users',
      { schema: { tags, querystring: AdminUsersQuery, response: { 200: AdminUsersResponse, ...errors } } },
      async (request) => admin.listUsers(request.query),
    );

    app.get(
      '/admin/users/:id',
      { schema: { tags, params: AdminUserParams, response: { 200: AdminUserDetailResponse, ...errors } } },
      async (request) => admin.userDetail(request.params.id),
    );

    app.patch(
      '/admin/users/:id',
      { schema: { tags, params: AdminUserParams, body: AdminUserPatchBody, response: { 200: AdminUserResponse, ...errors } } },
      async (request) => ({ user: await admin.updateUser(await operator(request), request.params.id, request.body) }),
    );

    app.post(
      '/admin/users/:id/resend-verification',
      {
        preValidation: emptyBodyAsObject,
        schema: { tags, params: AdminUserParams, body: AdminActionBody, response: { 200: MessageBody, ...errors } },
      },
      async (request) => {
        await admin.resendVerification(await operator(request), request.params.id, request.body.reason);
        return { message: 'A new verification link was sent to the account’s address.' };
      },
    );

    app.post(
      '/admin/users/:id/send-password-reset',
      {
        preValidation: emptyBodyAsObject,
        schema: { tags, params: AdminUserParams, body: AdminActionBody, response: { 200: MessageBody, ...errors } },
      },
      async (request) => {
        await admin.sendPasswordReset(await operator(request), request.params.id, request.body.reason);
        return { message: 'A password reset link was sent to the account’s address.' };
      },
    );

    app.delete(
      '/admin/users/:id',
      { schema: { tags, params: AdminUserParams, body: AdminDeleteUserBody, response: { 204: Type.Null(), ...errors, 502: ErrorBody } } },
      async (request, reply) => {
        await admin.deleteUser(await operator(request), request.params.id, request.body, {
          ip: request.ip,
          sessionId: caller(request).sessionId,
        });
        return reply.code(204).send(null);
      },
    );

    app.get('/admin/stats', { schema: { tags, response: { 200: AdminStatsResponse, ...errors } } }, async () => admin.stats());

    app.get(
      '/admin/audit',
      { schema: { tags, querystring: AdminAuditQuery, response: { 200: AdminAuditResponse, ...errors } } },
      async (request) => admin.audit(request.query),
    );
  };
}
