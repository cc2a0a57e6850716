import type { FileItem, UploadConfig } from '@cloudvault/contract/files';
import toast from 'react-hot-toast';
import { serverErrorMessage } from '../../lib/api-client';
import { formatBytesIn } from '@cloudvault/contract/format';
import i18n from '../../lib/i18n';
import { ensureFolder } from './api/ensure-folder';
import { createTusTransport, discardTusUpload, uploadLockName } from './api/tus-upload';
import { uploadFile } from './api/upload-file';
import { UnfinishedUploadStore } from './unfinished-uploads';
import { travelsResumably } from './upload-chunks';
import { planFromDataTransfer, type UploadPlan } from './upload-plan';
import { UploadQueue, type UploadTransport } from './upload-queue';
import { FALLBACK_UPLOAD_CONCURRENCY } from './upload-limits';

type UploadedListener = (file: FileItem) => void;
const uploadedListeners = new Set<UploadedListener>();

/** Tells listeners (the open folder's listing) about each file the server accepted. */
export function onFileUploaded(listener: UploadedListener): () => void {
  uploadedListeners.add(listener);
  return () => uploadedListeners.delete(listener);
}

const unfinishedUploads = new UnfinishedUploadStore();
/** Whose unfinished uploads are stored and offered after a reload (set by restoreUnfinishedUploads). */
let uploadOwner = '';

const tusUpload = createTusTransport({ store: unfinishedUploads, owner: () => uploadOwner });

/** Small files in one multipart request, the rest resumably over tus (upload-chunks.ts). */
const transport: UploadTransport<FileItem | null> = (file, folderId, options) =>
  travelsResumably(file.size) ? tusUpload(file, folderId, options) : uploadFile(file, folderId, options);

/**
 * The app's one upload queue. It lives outside React so uploads carry on while the user
 * moves between folders and pages; the progress panel (in the signed-in layout) shows it.
 */
export const uploadQueue = new UploadQueue<FileItem | null>({
  transport,
  // The progress panel sets the plan's own limit once the catalogue and the plan are known.
  concurrency: FALLBACK_UPLOAD_CONCURRENCY,
  resumable: travelsResumably,
  discard: (uploadUrl) => discardTusUpload(unfinishedUploads, uploadUrl),
  onUploaded: (file) => {
    if (!file) return;
    for (const listener of uploadedListeners) listener(file);
  },
  onFailed: (entry) => {
    toast.error(i18n.t('uploads.toast.fileFailed', { file: entry.name }));
  },
  // docs/product.md#uploads: one summary per batch.
  onBatchSettled: ({ succeeded, failed }) => {
    if (succeeded > 0) toast.success(i18n.t('uploads.toast.succeeded', { count: succeeded }));
    if (failed > 0) toast.error(i18n.t('uploads.toast.failed', { count: failed }));
  },
});

/**
 * Shows a row for each of `owner`'s uploads left unfinished by an earlier page (a reload,
 * a closed tab) that the server still keeps; each resumes once its file is picked again.
 */
export async function restoreUnfinishedUploads(owner: string): Promise<void> {
  uploadOwner = owner;
  // Uploads another tab of this browser is sending hold a lock (tus-upload.ts): not offered here.
  const held = new Set((await navigator.locks?.query())?.held?.map((lock) => lock.name));
  uploadQueue.restore(
    unfinishedUploads
      .forOwner(owner)
      .filter(({ uploadUrl }) => !held.has(uploadLockName(uploadUrl)))
      .map(({ uploadUrl, name, size, folderId }) => ({ resumeKey: uploadUrl, name, size, folderId })),
  );
}

/** '{file} is too large. Maximum file size for {plan} plan is {size}.' */
export function tooLargeMessage(fileName: string, config: UploadConfig): string {
  return i18n.t('uploads.rejection.tooLarge', {
    file: fileName,
    plan: i18n.t(`common.plans.${config.userPlan}`),
    size: config.userMaxFileSize === null ? config.userMaxFileSizeFormatted : formatBytesIn(config.userMaxFileSize, i18n.language),
  });
}

/**
 * Starts a plan: files over the plan's limit are refused with a toast each; the folders of
 * a dropped tree are created first (merging into existing ones of the same name); then
 * every file joins the queue in its folder. Resolves once everything is queued, with the
 * number of folders made (so the caller can refresh its listing).
 */
export async function startUploads(
  plan: UploadPlan,
  targetFolderId: string | null,
  config: UploadConfig,
  deps: { ensureFolder: typeof ensureFolder; queue: Pick<UploadQueue<FileItem | null>, 'add'> } = { ensureFolder, queue: uploadQueue },
): Promise<number> {
  const limit = config.userMaxFileSize;
  const accepted = plan.files.filter(({ file }) => {
    if (limit !== null && file.size > limit) {
      toast.error(tooLargeMessage(file.name, config));
      return false;
    }
    return true;
  });

  const folderIds = new Map<string, string | null>([['', targetFolderId]]);
  let created = 0;
  for (const path of plan.directories) {
    const parentKey = path.slice(0, -1).join('/');
    if (!folderIds.has(parentKey)) continue; // Its parent could not be made.
    const parentId = folderIds.get(parentKey) ?? null;
    const name = path[path.length - 1] ?? '';
    try {
      const folder = await deps.ensureFolder(name, parentId);
      folderIds.set(path.join('/'), folder.id);
      created += 1;
    } catch (error) {
      toast.error(serverErrorMessage(error) ?? i18n.t('uploads.folderFailed'));
    }
  }

  const items = accepted.flatMap(({ file, directory }) => {
    const key = directory.join('/');
    return folderIds.has(key) ? [{ file, folderId: folderIds.get(key) ?? null }] : [];
  });
  deps.queue.add(items);
  return created;
}

/** Starts uploading what was dropped on the page into `targetFolderId`, as startUploads does. */
export async function uploadDropped(dataTransfer: DataTransfer, targetFolderId: string | null, config: UploadConfig): Promise<number> {
  return startUploads(await planFromDataTransfer(dataTransfer), targetFolderId, config);
}
