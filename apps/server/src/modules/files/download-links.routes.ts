import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../lib/errors.ts';
import type { DownloadLinks } from './download-links.ts';
import { sendFile, sendZip } from './download-responses.ts';
import type { FilesService } from './files.service.ts';
import type { FolderArchiveService } from './folder-archive.service.ts';
import type { AccountExportService } from '../account-data/account-export.service.ts';
import type { VersionsService } from '../versions/versions.service.ts';

/** GET /api/downloads/:token — no bearer: the signed token is the permission. */
export function downloadLinkRoutes(deps: {
  links: DownloadLinks;
  files: FilesService;
  folderArchives: FolderArchiveService;
  accountExports: AccountExportService;
  versions: VersionsService;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/downloads/:token',
      { schema: { tags: ['files'], params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 2048 }) }) } },
      async (request, reply) => {
        const target = await deps.links.verify(request.params.token);
        if (!target) throw notFound('This download link has expired. Start the download again.', 'DOWNLOAD_LINK_INVALID');
        if (target.kind === 'folder') return sendZip(request, reply, await deps.folderArchives.archive(target.userId, target.id));
        if (target.kind === 'export') return sendZip(request, reply, await deps.accountExports.export(target.userId));
        if (target.kind === 'version') {
          const file = await deps.versions.versionAsFile(target.userId, target.fileId, target.id);
          return sendFile(request, reply, file, (range) => deps.versions.openBytes(file, range));
        }
        const file = await deps.files.requireFile(target.userId, target.id);
        return sendFile(request, reply, file, (range) => deps.files.open(target.userId, file.id, range));
      },
    );
  };
}
