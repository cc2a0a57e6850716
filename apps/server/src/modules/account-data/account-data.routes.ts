import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, MessageBody } from '@cloudvault/contract/common';
import { DownloadLinkResponse } from '@cloudvault/contract/files';
import { DeleteAccountBody } from '@cloudvault/contract/profile';
import { caller } from '../../lib/auth.ts';
import { emptyBodyAsObject } from '../../lib/optional-body.ts';
import type { DownloadLinks } from '../downloads/download-links.ts';
import type { DownloadResponses } from '../downloads/download-responses.ts';
import type { AccountDeletionService } from './account-deletion.service.ts';
import type { AccountExportService } from './account-export.service.ts';

export function accountDataRoutes(deps: {
  exports: AccountExportService;
  deletion: AccountDeletionService;
  links: DownloadLinks;
  downloads: DownloadResponses;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    deps.links.serve('export', async ({ userId }) => ({ type: 'zip', archive: await deps.exports.export(userId) }));
    app.addHook('onRequest', app.requireUser);

    app.get('/user/export', { schema: { tags: ['account'] } }, async (request, reply) =>
      deps.downloads.sendZip(request, reply, await deps.exports.export(caller(request).userId)),
    );

    // The browser saves the export through its own download manager (decisions 0006).
    app.post(
      '/user/export/download-link',
      { schema: { tags: ['account'], response: { 200: DownloadLinkResponse, 401: ErrorBody } } },
      async (request) => {
        const { userId } = caller(request);
        return deps.links.create({ kind: 'export', id: userId, userId });
      },
    );

    app.delete(
      '/user/account',
      {
        schema: {
          tags: ['account'],
          body: DeleteAccountBody,
          response: { 200: MessageBody, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody, 502: ErrorBody },
        },
        // A DELETE sent with no body is asked for the password, not told the body is malformed.
        preValidation: emptyBodyAsObject,
      },
      async (request) => {
        const { userId, sessionId } = caller(request);
        await deps.deletion.deleteAccount(userId, request.body.password, { ip: request.ip, sessionId });
        return { message: 'Account deleted successfully' };
      },
    );
  };
}
