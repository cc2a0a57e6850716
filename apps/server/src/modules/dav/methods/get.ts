import type { DownloadResponses } from '../../downloads/download-responses.ts';
import { located } from '../dav-request-context.ts';
import type { DavHandler } from '../dav-responses.ts';
import { type DavService, fileEtag } from '../dav.service.ts';

/** GET and HEAD: a file's bytes (ranges and conditional requests as every download has them), a line of text for a collection. */
export function getHandler(deps: { dav: Pick<DavService, 'locate'>; downloads: Pick<DownloadResponses, 'sendFile'> }): DavHandler {
  return async (request, reply) => {
    const resource = await located(deps.dav, request);
    if (resource.kind !== 'file') {
      return reply.code(200).type('text/plain; charset=utf-8').send('This is a WebDAV collection: list it with PROPFIND.\n');
    }
    reply.header('Last-Modified', new Date(resource.file.updated_at).toUTCString());
    // ownCloud's transmission checksum: Nextcloud's and ownCloud's clients check the bytes they receive against it.
    reply.header('OC-Checksum', `SHA256:${resource.file.sha256}`);
    // Bytes stream through this node, never as a redirect to S3: a WebDAV client may
    // not follow one, or may send it our credentials (docs/decisions/0027-webdav.md).
    return deps.downloads.sendFile(request, reply, resource.file, { redirect: false, etag: fileEtag(resource.file) });
  };
}
