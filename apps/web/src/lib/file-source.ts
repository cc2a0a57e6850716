import type { ReactNode } from 'react';
import type { DropdownMenuItem } from '../components/ui/dropdown-menu';
import { apiBlob, ApiError, api } from './api-client';
import { downloadWithLink } from './download';
import { downloadFromDevice, offlineCopyAddress } from './offline-files';
import type { DownloadLinkResponse } from '@cloudvault/contract/files';
import type { FilePreview, ThumbnailSize } from '@cloudvault/contract/thumbnails';

export type { ThumbnailSize };

/** A file as the viewer and the thumbnails need it: a listing's FileItem fits. */
export interface ViewableFile {
  id: string;
  originalName: string;
  mimetype: string;
  size: number;
  /** What the server can show of it (docs/api.md#thumbnails). */
  preview: FilePreview;
  /** Changes with the bytes: thumbnail addresses carry it, so no cache outlives the content. */
  contentTag: string;
}

/** The previews the server draws a thumbnail for (images, a PDF's first page, a video's frame). */
const WITH_THUMBNAIL: ReadonlySet<FilePreview> = new Set(['image', 'pdf', 'video']);

export function hasThumbnail(file: Pick<ViewableFile, 'preview'>): boolean {
  return WITH_THUMBNAIL.has(file.preview);
}

/** Which file's thumbnail: its id, and the content it must show. */
export type ThumbnailOf = Pick<ViewableFile, 'id' | 'contentTag'>;

/**
 * Where a file's bytes and thumbnails come from for whoever is looking: the signed-in user
 * (own files and folders shared with them), or a visitor of a public link. The viewer and
 * the thumbnails know only this, so one viewer serves every page.
 */
export interface FileSource {
  /**
   * An address the browser loads the bytes from by itself, with Range (<img>, <video>,
   * pdf.js, a ranged fetch): it needs no header, so the bytes never pass through a Blob.
   */
  bytesUrl(fileId: string): Promise<string>;
  /** The thumbnail's image, or null when the file has none (yet). */
  thumbnail(file: ThumbnailOf, size: ThumbnailSize, signal?: AbortSignal): Promise<Blob | null>;
  /** Saves the file through the browser's download manager; absent where downloads are off (a view-only link). */
  download?(fileId: string): Promise<void>;
}

/**
 * Thumbnails the server said will never come (404 `NO_THUMBNAIL`), by who asked, file and
 * content, for the page's life: a tile drawn again (scrolled back, the other view, the
 * viewer closed) does not ask again. A new version has a new content tag, so it is asked for.
 */
const withoutThumbnail = new Set<string>();

/**
 * The thumbnail `request` fetches, unless the server already said none will come for `key`.
 * A 404 is an answer, no picture: `NO_THUMBNAIL` is remembered; `THUMBNAIL_PENDING` (the job
 * runner has not made it yet) is not, so the next mount asks again.
 */
export async function askForThumbnail(key: string, request: () => Promise<Blob>): Promise<Blob | null> {
  if (withoutThumbnail.has(key)) return null;
  try {
    return await request();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    if (error.code === 'NO_THUMBNAIL') withoutThumbnail.add(key);
    return null;
  }
}

/**
 * The signed-in user's own files and the files of folders shared with them: the same
 * routes answer for both (the server checks who may read).
 */
export const signedInFileSource: FileSource = {
  bytesUrl(fileId) {
    return orDeviceCopy(
      fileId,
      async () => (await api.post<DownloadLinkResponse>(`/files/${encodeURIComponent(fileId)}/download-link`)).url,
      (address) => address,
    );
  },
  thumbnail(file, size, signal) {
    return askForThumbnail(`${file.id}:${file.contentTag}`, () =>
      apiBlob(`/files/${encodeURIComponent(file.id)}/thumbnail`, { query: { size, v: file.contentTag }, signal }),
    );
  },
  download(fileId) {
    return orDeviceCopy(fileId, () => downloadWithLink(`/files/${encodeURIComponent(fileId)}/download-link`), downloadFromDevice);
  },
};

/**
 * The server's answer first, so that what is shown online is always the latest version; when
 * the network gives none (no answer at all, not a refusal), the copy the device keeps of a
 * file marked "available offline" (lib/offline-files.ts), else the network's error.
 */
async function orDeviceCopy<T>(fileId: string, online: () => Promise<T>, fromDevice: (address: string) => T): Promise<T> {
  const copy = () => offlineCopyAddress(fileId).catch(() => null);
  if (!navigator.onLine) {
    const address = await copy();
    if (address) return fromDevice(address);
  }
  try {
    return await online();
  } catch (error) {
    const address = error instanceof ApiError ? null : await copy();
    if (address) return fromDevice(address);
    throw error;
  }
}

/** One entry of the viewer's toolbar besides Download (Share, Delete, Version history). */
export type ViewerAction = DropdownMenuItem;

/**
 * What a page gives the file viewer (features/viewer): the folder's files in the order
 * shown, the one open, where bytes come from, and what else the person may do with it.
 */
export interface FileViewerProps {
  files: readonly ViewableFile[];
  fileId: string;
  source: FileSource;
  /** Arrows and swipes: show this file instead. */
  onMove: (fileId: string) => void;
  onClose: () => void;
  /**
   * The actions this person may take on `file` besides Download, handed to `toolbar`
   * (which draws them) with any dialog they open; absent for a visitor.
   */
  renderActions?: (file: ViewableFile, toolbar: (actions: ViewerAction[], dialog?: ReactNode) => ReactNode) => ReactNode;
}
