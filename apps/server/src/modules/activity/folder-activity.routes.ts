import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import { FolderIdParams } from '@cloudvault/contract/folders';
import { FolderActivityResponse } from '@cloudvault/contract/shares';
import { caller } from '../../lib/auth.ts';
import type { FolderActivityService } from './folder-activity.service.ts';

/** A folder's activity, for its owner and the people it is shared with (docs/api.md#folder-activity). */
export function folderActivityRoutes(folderActivity: Pick<FolderActivityService, 'list'>): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get(
      '/user/folders/:id/activity',
      {
        schema: {
          tags: ['folders'],
          params: FolderIdParams,
          response: { 200: FolderActivityResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => ({ activity: await folderActivity.list(caller(request).userId, request.params.id) }),
    );
  };
}
