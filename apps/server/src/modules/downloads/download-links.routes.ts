import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../lib/errors.ts';
import type { DownloadLinks } from './download-links.ts';
import type { DownloadResponses } from './download-responses.ts';

/** GET /api/downloads/:token — no bearer: the signed token is the permission. */
export function downloadLinkRoutes(deps: { links: DownloadLinks; downloads: DownloadResponses }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/downloads/:token',
      { schema: { tags: ['files'], params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 2048 }) }) } },
      async (request, reply) => {
        const download = await deps.links.resolve(request.params.token);
        if (!download) throw notFound('This download link has expired. Start the download again.', 'DOWNLOAD_LINK_INVALID');
        return deps.downloads.send(request, reply, download);
      },
    );
  };
}
