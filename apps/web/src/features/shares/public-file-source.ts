import type { PublicShare } from '@cloudvault/contract/shares';
import { apiBlob } from '../../lib/api-client';
import { saveFromUrl } from '../../lib/download';
import { askForThumbnail, type FileSource, type ViewableFile } from '../../lib/file-source';
import { publicDownloadHref, publicViewHref } from './public-links';

/** The id a file link's single file goes by in the viewer's address (`?view=file`): the link names no file id. */
export const SHARED_FILE_ID = 'file';

/**
 * A public link's files for its visitor: plain addresses (the token, and an unlocked
 * password link's grant as `access`), so the browser loads them itself, with Range. A file
 * link is its one file; a folder link reaches each file inside by its id. A view-only link's
 * bytes come from its display route, and it offers no download.
 */
export function publicFileSource(token: string, access: string | null, kind: 'file' | 'folder', viewOnly = false): FileSource {
  const base = `/public/shares/${encodeURIComponent(token)}`;
  const target = (fileId: string) => ({ fileId: kind === 'folder' ? fileId : undefined, access });
  const href = (fileId: string) => publicDownloadHref(token, target(fileId));
  return {
    bytesUrl: async (fileId) => (viewOnly ? publicViewHref(token, target(fileId)) : href(fileId)),
    thumbnail: (file, size, signal) =>
      // A file link's file goes by no id of its own: the link tells it apart.
      askForThumbnail(`${base}:${file.id}:${file.contentTag}`, () =>
        apiBlob(kind === 'folder' ? `${base}/files/${encodeURIComponent(file.id)}/thumbnail` : `${base}/thumbnail`, {
          query: { size, v: file.contentTag, access },
          // A 401 here is the link's (its grant ran out), never the end of anyone's session.
          ignoreUnauthorized: true,
          signal,
        }),
      ),
    download: viewOnly ? undefined : async (fileId) => saveFromUrl(href(fileId)),
  };
}

/** A file link's one file as the viewer and thumbnails see it. */
export function sharedFile(share: PublicShare): ViewableFile {
  return {
    id: SHARED_FILE_ID,
    originalName: share.name,
    mimetype: share.mimetype ?? 'application/octet-stream',
    size: share.size ?? 0,
    preview: share.preview ?? null,
    contentTag: share.contentTag ?? '',
  };
}
