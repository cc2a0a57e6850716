import type { FileItem, NameConflict, UploadConfig } from '@cloudvault/contract/files';
import type { Folder } from '@cloudvault/contract/folders';
import { getFiles } from '../../hooks/use-files';
import { api } from '../../lib/api-client';
import { formatBytesIn } from '@cloudvault/contract/format';
import i18n from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { whenOnline } from '../../lib/when-online';
import { ensureFolder } from './api/ensure-folder';
import { chooseFolder } from './choose-folder';
import { createTusTransport, discardTusUpload, uploadLockName } from './api/tus-upload';
import { uploadFile } from './api/upload-file';
import { UnfinishedUploadStore } from './unfinished-uploads';
import { travelsResumably } from './upload-chunks';
import { askNameClash } from './name-clash-prompt';
import { type AskClash, clashingIndexes, type NameClash, resolveClashes } from './name-clashes';
import { planFromDataTransfer, planFromFiles, type UploadPlan } from './upload-plan';
import { PAUSE_REASON, type TransportOptions, UploadQueue, type UploadTransport } from './upload-queue';
import { forgetWaiting, isWaiting, keepWaiting, type WaitingUpload, waitingUploads } from './waiting-uploads';
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

/**
 * Small files in one multipart request, the rest resumably over tus (upload-chunks.ts). One
 * chosen offline waits, saying so, and starts by itself when the network returns.
 */
const transport: UploadTransport<FileItem | null> = (file, folderId, options) => {
  const send = () => (travelsResumably(file.size) ? tusUpload(file, folderId, options) : uploadFile(file, folderId, options));
  return navigator.onLine && !isWaiting(file) ? send() : sendWhenOnline({ file, folderId, conflict: options.conflict }, options, send);
};

/**
 * A file chosen offline is kept on the device (waiting-uploads.ts) so that a reload or a
 * closed app does not lose it, and waits for the network. Once it starts to travel the copy
 * has done its part: from there a large file is resumed from the server's offset like any
 * other (unfinished-uploads.ts), and a copy kept longer would be sent a second time by the
 * next page. A cancel while it waits forgets it too; a pause keeps it.
 */
async function sendWhenOnline(
  upload: WaitingUpload,
  { signal, onReconnecting }: TransportOptions,
  send: () => Promise<FileItem | null>,
): Promise<FileItem | null> {
  await keepWaiting(upload).catch((error: unknown) =>
    console.warn('Could not keep the file on this device until the network returns.', error),
  );
  try {
    await whenOnline(signal, onReconnecting);
  } catch (error) {
    if (signal.reason !== PAUSE_REASON) void forgetWaiting(upload.file);
    throw error;
  }
  void forgetWaiting(upload.file);
  return send();
}

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
  // A name taken since the batch asked (docs/decisions/0050-name-clashes.md): asked now, alone.
  onNameTaken: async (entry) => {
    const clash = { name: entry.name, folderName: await folderNameOf(entry.folderId), canReplace: true };
    const { choice } = await askNameClash(clash, 1);
    return choice === 'skip' ? null : choice;
  },
  onFailed: (entry) => {
    notify.error('uploads.toast.fileFailed', { values: { file: entry.name } });
  },
  // docs/product.md#uploads: one summary per batch.
  onBatchSettled: ({ succeeded, failed }) => {
    if (succeeded > 0) notify.success('uploads.toast.succeeded', { values: { count: succeeded } });
    if (failed > 0) notify.error('uploads.toast.failed', { values: { count: failed } });
  },
});

/**
 * Shows a row for each of `owner`'s uploads left unfinished by an earlier page (a reload,
 * a closed tab) that the server still keeps; each resumes once its file is picked again.
 * The files an earlier page chose offline are queued again.
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
  // Files chosen offline on an earlier page go again by themselves, once the network is back.
  const waiting = await waitingUploads().catch(() => []);
  if (waiting.length > 0) uploadQueue.add(waiting);
}

/**
 * '{file} is too large. Maximum file size for {plan} plan is {size}.' The plan's name and the
 * size are put in the language of the moment the file was refused; the sentence follows a switch.
 */
export function notifyTooLarge(fileName: string, config: UploadConfig): void {
  notify.error('uploads.rejection.tooLarge', {
    values: {
      file: fileName,
      plan: i18n.t(`common.plans.${config.userPlan}`),
      size: config.userMaxFileSize === null ? config.userMaxFileSizeFormatted : formatBytesIn(config.userMaxFileSize, i18n.language),
    },
  });
}

/** The folder's name as the clash dialog shows it: "My Files" for the top level. */
async function folderNameOf(folderId: string | null): Promise<string> {
  if (folderId === null) return i18n.t('dashboard.breadcrumbs.home');
  try {
    const { path } = await api.get<{ path: Folder[] }>(`/user/folders/${encodeURIComponent(folderId)}/path`);
    return path.at(-1)?.name ?? '';
  } catch {
    return '';
  }
}

/** What startUploads reaches outside itself through: the server, the queue and the person. */
export interface StartUploadsDeps {
  ensureFolder: (name: string, parentId: string | null) => Promise<Folder & { existed?: boolean }>;
  queue: Pick<UploadQueue<FileItem | null>, 'add'>;
  /** The names of the files in a folder (a failed listing: none, and the server's 409 catches a clash). */
  listNames: (folderId: string | null) => Promise<string[]>;
  folderName: (folderId: string | null) => Promise<string>;
  ask: AskClash;
}

const startDeps: StartUploadsDeps = {
  ensureFolder,
  queue: uploadQueue,
  listNames: (folderId) => getFiles(folderId).then((files) => files.map((file) => file.originalName)),
  folderName: folderNameOf,
  ask: askNameClash,
};

/**
 * Starts a plan: files over the plan's limit are refused with a toast each; the folders of
 * a dropped tree are created first (merging into existing ones of the same name); each file
 * whose name its folder already holds is asked about (Replace, Keep both, Skip; once per
 * batch with "apply to all"), and every file not skipped joins the queue in its folder with
 * that choice, or with `fail` when nothing clashed, so a name taken meanwhile is asked
 * about then (docs/decisions/0050-name-clashes.md). Resolves once everything is queued,
 * with the number of folders made (so the caller can refresh its listing).
 */
export async function startUploads(
  plan: UploadPlan,
  targetFolderId: string | null,
  config: UploadConfig,
  overrides: Partial<StartUploadsDeps> = {},
): Promise<number> {
  const deps = { ...startDeps, ...overrides };
  const limit = config.userMaxFileSize;
  const accepted = plan.files.filter(({ file }) => {
    if (limit !== null && file.size > limit) {
      notifyTooLarge(file.name, config);
      return false;
    }
    return true;
  });

  const folderIds = new Map<string, string | null>([['', targetFolderId]]);
  // Folders that were there before this batch: only their files can clash.
  const existing = new Set<string>(['']);
  let created = 0;
  for (const path of plan.directories) {
    const parentKey = path.slice(0, -1).join('/');
    if (!folderIds.has(parentKey)) continue; // Its parent could not be made.
    const parentId = folderIds.get(parentKey) ?? null;
    const name = path[path.length - 1] ?? '';
    try {
      const folder = await deps.ensureFolder(name, parentId);
      folderIds.set(path.join('/'), folder.id);
      if (folder.existed && existing.has(parentKey)) existing.add(path.join('/'));
      created += 1;
    } catch (error) {
      // 'Failed to create folder' is one where product.md prefers the server's text.
      notify.error('uploads.folderFailed', { error });
    }
  }

  const items = accepted.flatMap(({ file, directory }) => {
    const key = directory.join('/');
    return folderIds.has(key) ? [{ file, key, folderId: folderIds.get(key) ?? null }] : [];
  });
  const conflicts = await chooseConflicts(items, existing, deps);
  deps.queue.add(items.flatMap((item, index) => (conflicts[index] ? [{ ...item, conflict: conflicts[index] }] : [])));
  return created;
}

/** Each item's conflict for the server, or null to skip it: the person's choice where its folder holds its name, else `fail`. */
async function chooseConflicts(
  items: ReadonlyArray<{ file: File; key: string; folderId: string | null }>,
  existing: ReadonlySet<string>,
  deps: StartUploadsDeps,
): Promise<Array<NameConflict | null>> {
  const conflicts: Array<NameConflict | null> = items.map(() => 'fail');
  const clashes: Array<{ index: number; clash: NameClash }> = [];
  for (const key of new Set(items.map((item) => item.key))) {
    if (!existing.has(key)) continue;
    const inFolder = items.flatMap((item, index) => (item.key === key ? [index] : []));
    const folderId = items[inFolder[0]!]!.folderId;
    const names = await deps.listNames(folderId).catch(() => []);
    const clashing = clashingIndexes(
      inFolder.map((index) => items[index]!.file.name),
      names,
    );
    if (clashing.length === 0) continue;
    const folderName = key === '' ? await deps.folderName(folderId) : key.split('/').at(-1)!;
    for (const at of clashing) {
      const index = inFolder[at]!;
      clashes.push({ index, clash: { name: items[index]!.file.name, folderName, canReplace: true } });
    }
  }
  const choices = await resolveClashes(
    clashes.map(({ clash }) => clash),
    deps.ask,
  );
  clashes.forEach(({ index }, at) => {
    const choice = choices[at];
    conflicts[index] = choice === 'skip' || choice === undefined ? null : choice;
  });
  return conflicts;
}

/** Starts uploading what was dropped on the page into `targetFolderId`, as startUploads does. */
export async function uploadDropped(dataTransfer: DataTransfer, targetFolderId: string | null, config: UploadConfig): Promise<number> {
  return startUploads(await planFromDataTransfer(dataTransfer), targetFolderId, config);
}

/**
 * Opens the browser's folder chooser and uploads the folder picked into `targetFolderId`
 * with its tree, as a dropped folder is (the dashboard's "Upload folder"). Resolves with the
 * number of folders made; 0 when nothing was picked.
 */
export async function pickFolder(targetFolderId: string | null, config: UploadConfig): Promise<number> {
  const files = await chooseFolder();
  return files.length === 0 ? 0 : startUploads(planFromFiles(files), targetFolderId, config);
}
