import { Readable } from 'node:stream';
import type { FileItem, NameConflict } from '@cloudvault/contract/files';
import { formatBytes } from '@cloudvault/contract/format';
import { type BlobStore, BlobTooLargeError, type PutResult } from '../../adapters/blob-store/blob-store.ts';
import type { Clock } from '../../lib/clock.ts';
import { categorize, resolveMimetype } from '../../lib/content-types.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { PlanCatalogue, PlanEntry } from '../plans/plans.catalogue.ts';
import type { FolderActivityRecord } from '../activity/folder-activity.service.ts';
import type { FoldersService } from '../folders/folders.service.ts';
import { requireItemName, rootOr } from '../folders/folders.service.ts';
import type { FileRow, FilesRepository } from './files.repository.ts';
import type { UploadReservationsRepository } from './upload-reservations.repository.ts';
import { presentFile } from './files.presenter.ts';
import { firstFreeName } from '../../lib/unique-name.ts';

/** Room for the multipart boundaries and the folderId field around the file itself. */
export const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * How a way in wraps the file in its body: `multipart` adds boundaries and fields around it
 * (up to MULTIPART_OVERHEAD), so its declared length is the body's, not the file's; `raw`
 * (a WebDAV PUT, a tus upload) is the file's bytes alone, its declared length exact.
 */
export type UploadFraming = 'multipart' | 'raw';

/** What a way in reads from its body before the file's bytes: where the file goes, and the bytes. */
export interface UploadContent {
  folderId: string | null;
  fileName: string;
  declaredMimetype: string | undefined;
  /** The body's own choice for a taken name (the multipart `conflict` field), over ReceiveInput's. */
  conflict?: NameConflict;
  /** A request's body: its chunks are freed once stored, so nothing else may hold them. */
  body: Readable;
}

/** How a way in answers a body that broke off: in its own words, logged as routine when the client left. */
export interface CutOffBody {
  /** Whether the client went away (the request aborted, its socket gone). */
  clientGone(): boolean;
  /** An error of the body's own parsing (a malformed multipart body), answered like a cut-off one. */
  isMalformed?(error: unknown): boolean;
  answer(): AppError;
  log: { info(details: object, message: string): void; warn(details: object, message: string): void };
}

/**
 * One upload through one of the ways in (docs/decisions/0042-one-upload-path.md): the way
 * in speaks its protocol; receive() holds the quota, stores, lists and releases.
 */
export interface ReceiveInput {
  /** Who uploads: the file goes into their drive, or into the owner's when the folder is one they edit (a share). */
  userId: string;
  /**
   * The folder, when the way in knows it before the body (a WebDAV path, tus metadata): then
   * every check of the folder owner's plan and quota comes before any byte. Absent: the body
   * names it (the multipart `folderId` field). A folder of someone else's that the caller
   * edits puts the file in that owner's drive (docs/decisions/0061-share-roles.md).
   */
  folderId?: string | null;
  /**
   * The body names the folder (the multipart `folderId` field) and the client sends it
   * without waiting for `100 Continue`: its fields are read first and only the folder
   * owner's plan and quota are held, still before any byte of the file. Otherwise, with the
   * folder unknown, the caller's own are held before the body (decision 0018) and the hold
   * moves to the owner once the body names a folder of someone else's that the caller edits.
   */
  readsFolderFirst?: boolean;
  /** The body's declared length (the whole multipart body's); undefined: unknown, held up to what the plan allows one file. */
  declaredBytes: number | undefined;
  framing: UploadFraming;
  /**
   * A live file of the same name gets the new bytes, keeping its id (WebDAV's PUT): its old
   * bytes become a version where the plan keeps versions and are freed otherwise. Without
   * it, plans without versioning list the upload under the next free name.
   */
  replace?: boolean;
  /** What to do when the folder holds the name (docs/api.md#name-clashes); absent: as `replace` says. */
  conflict?: NameConflict;
  /** Part of a batch that holds one of the plan's uploads at once for all its files (POST /api/sync/uploads): not counted again. */
  slotHeld?: boolean;
  /** Called once the upload is accepted on its declared size, before any byte of the body is read (100-continue). */
  onAccepted?(): void;
  /** Reads the body up to the file's bytes (a multipart body's fields come first). */
  content(): Promise<UploadContent>;
  /** After the file is listed: reads what follows it, which may still refuse the upload; the file is then removed. */
  rest?(): Promise<void>;
  cutOff?: CutOffBody;
}

/** An upload's hold on the quota and on one of the plan's uploads at once, until released. */
export interface UploadReservation {
  id: string;
  userId: string;
  /** The request's Content-Length: an upper bound of the file's size, known before any byte. */
  bytes: number;
  /** The length was not declared: `bytes` is what the plan allowed, and a body passing it is refused as too large or over quota. */
  lengthUnknown?: boolean;
  blobKey: string;
  /** Set once the file is listed: the reservation went with it, nothing is left to give back. */
  settled: boolean;
  /** The plan's storage limit when reserve() made it: what the storage alerts of its bytes compare against. */
  storageLimit?: number;
  stopRenewing(): void;
}

export interface UploadsServiceDeps {
  files: Pick<
    FilesRepository,
    | 'insertUploaded'
    | 'insertUploadedMany'
    | 'addVersionByName'
    | 'discardUploaded'
    | 'storageUsed'
    | 'findLiveByName'
    | 'untrashReplaced'
    | 'revertToVersion'
  >;
  reservations: UploadReservationsRepository;
  folders: Pick<FoldersService, 'requireParent' | 'writableFolder'>;
  blobs: Pick<BlobStore, 'put' | 'delete'>;
  plans: PlanCatalogue;
  /** The user's plan id, read fresh for each upload so a plan change applies at once. */
  planIdOf(userId: string): Promise<string>;
  clock: Clock;
  /** How long a reservation lives unrenewed: past it, any node takes the upload's node for dead (UPLOAD_LEASE_SECONDS). */
  leaseMs: number;
  /** Deletes the bytes of blobs this service just queued for deletion (the storage-upkeep service's). */
  deleteQueuedBlobs(keys: readonly string[]): Promise<unknown>;
  /** After a file is stored, for the drive's owner: the activity log, and storage alerts when usage passes 80 % or 90 %. */
  uploaded(userId: string, file: FileItem, usage: { before: number; after: number; limit: number }): Promise<void>;
  /** A shared folder's activity: an upload by someone other than its owner, by whom (docs/decisions/0061-share-roles.md). */
  recordFolderActivity?(entry: FolderActivityRecord): Promise<void>;
}

/** Where an upload's file goes: whose drive (the quota and plan it counts on) and which folder of it. */
export interface UploadDestination {
  ownerId: string;
  folderId: string | null;
}

export interface ReserveOptions {
  /** How the body wraps the file: a multipart body may declare MULTIPART_OVERHEAD above the plan's per-file limit. */
  framing: UploadFraming;
  /** A fixed lease, not renewed: an upload that outlives requests holds its reservation until then. */
  leaseUntil?: string;
  /** The largest file the reservation holds, when it holds several (a copied folder): the per-file limit is checked on it. */
  largestFile?: number;
  /** The caller holds one of the plan's uploads at once for this upload already (a batch's): it is not counted again. */
  slotHeld?: boolean;
}

type UploadUsage = { before: number; after: number; limit: number };

/** A small file of a batch, read whole, for the caller's own drive (receiveGroup). */
export interface GroupFile {
  /** A live folder of the caller's own (checked again when listed), or null for the root. */
  folderId: string | null;
  name: string;
  /** `replace` goes through receive(), which keeps versions. */
  conflict: 'fail' | 'keep-both';
  declaredMimetype: string | undefined;
  chunks: readonly Buffer[];
  size: number;
  /** The hash the client sent, lower-case: bytes that differ are refused with HASH_MISMATCH. */
  contentHash?: string;
}

/** What a group's upload answers: each file's result in order, and how the owner's usage moved. */
export interface GroupOutcome {
  results: Array<FileItem | AppError>;
  usage: UploadUsage;
}

/** Files of a group stored at once: each waits on its fsyncs, which the disk commits together (decision 0021). */
const GROUP_PUTS_AT_ONCE = 16;

type UploadedContent = Pick<FileRow, 'mimetype' | 'category' | 'size' | 'sha256' | 'crc32' | 'blob_key' | 'updated_at'>;

export const tooLarge = (planName: string, maxFileSize: number) =>
  new AppError(413, 'FILE_TOO_LARGE', `This file is larger than the ${formatBytes(maxFileSize)} per-file limit of the ${planName} plan`);

/** Why an upload does not fit, and what the user can do about it. */
function storageFull(plan: { name: string; storageLimit: number }, used: number, needed: number): AppError {
  const limit = formatBytes(plan.storageLimit);
  if (used >= plan.storageLimit) {
    // After a downgrade: everything is kept, only new uploads wait.
    return new AppError(
      507,
      'OVER_STORAGE_LIMIT',
      `Uploads are paused: your files use ${formatBytes(used)}, more than the ${limit} of the ${plan.name} plan. Your files are safe and you can still download, share and delete them. Delete files and empty Trash to get under ${limit}, or upgrade your plan.`,
    );
  }
  return new AppError(
    507,
    'QUOTA_EXCEEDED',
    `Not enough storage: ${formatBytes(plan.storageLimit - used)} free of your ${limit}, and this upload needs ${formatBytes(needed)}. Delete files, empty Trash or upgrade your plan.`,
  );
}

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** An upload sent with conflict `fail` onto a taken name: the existing file's id lets the client ask what to do. */
export const nameTaken = (name: string, existingId: string) =>
  new AppError(409, 'NAME_TAKEN', `A file named "${name}" already exists there`, { existingId });

/** A folder id a way in was sent (a multipart field, tus metadata): "null" or nothing is the root; anything else must look like an id. */
export function folderIdOf(value: string | null | undefined): string | null {
  if (value && value !== 'null' && !ID_PATTERN.test(value)) throw badRequest('folderId is not a valid id');
  return rootOr(value ?? undefined);
}

const NAME_CONFLICTS: readonly string[] = ['replace', 'keep-both', 'fail'] satisfies NameConflict[];

/** A `conflict` a way in was sent (a multipart field, tus metadata): nothing keeps the default; anything else must be one of the choices. */
export function nameConflictOf(value: string | null | undefined): NameConflict | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (!NAME_CONFLICTS.includes(value)) throw badRequest('conflict must be replace, keep-both or fail', 'INVALID_CONFLICT');
  return value as NameConflict;
}

/**
 * A declared length (Content-Length, Upload-Length) as a number, or 411 LENGTH_REQUIRED:
 * the quota is held from it before any byte. `allowEmpty`: a length of 0 is a valid upload.
 */
export function requireDeclaredLength(value: string | undefined, refusal: { allowEmpty: boolean; message: string }): number {
  const bytes = value !== undefined && /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(bytes) || (bytes === 0 && !refusal.allowEmpty)) throw new AppError(411, 'LENGTH_REQUIRED', refusal.message);
  return bytes;
}

const tooManyUploads = (plan: { name: string; maxConcurrentUploads: number | null }) =>
  new AppError(
    429,
    'TOO_MANY_UPLOADS',
    `The ${plan.name} plan uploads ${plan.maxConcurrentUploads} files at a time. Wait for one to finish.`,
  );

/** The reservation was given back by another node while this one stored the bytes. */
const leaseLost = () =>
  new AppError(503, 'UPLOAD_LEASE_LOST', 'The upload took too long to be confirmed and was not kept. Please upload the file again.');

/**
 * The upload use-case every way in calls (docs/decisions/0042-one-upload-path.md): a way in
 * speaks its protocol and hands receive() the declared size, the framing and the body.
 * Streams the upload from the socket to the blob store: the per-file limit is checked on
 * the declared size before any byte is read and enforced while streaming; the quota and
 * the plan's uploads at once are held by a leased reservation row, made atomically up front
 * (reserve) and settled with the file's listing; any failure or client abort gives it back
 * and deletes the bytes through the deletion queue (release;
 * docs/decisions/0021-crash-safe-storage.md).
 */
export function createUploadsService(deps: UploadsServiceDeps) {
  const { files, reservations, folders, blobs, plans, clock, leaseMs } = deps;
  const leaseUntil = () => new Date(clock.now().getTime() + leaseMs).toISOString();

  /**
   * Renews the reservation's lease every third of it while the bytes stream, so only a
   * node that stops (killed, frozen, cut off from the database) loses it. A failed renewal
   * is retried at the next tick; the lease's other two thirds leave room for that.
   */
  function keepLeased(reservationId: string): () => void {
    const timer = setInterval(() => {
      reservations.renew(reservationId, leaseUntil()).then(
        // Gone: settled, or given back by a node that took this one for dead.
        (renewed) => renewed || clearInterval(timer),
        () => {},
      );
    }, leaseMs / 3);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Lists the stored blob as a file, or as the new content of the same-named file (versioning). */
  async function complete(
    input: {
      id: string;
      userId: string;
      folderId: string | null;
      name: string;
      reservationId: string;
      versioning: boolean;
      replace?: boolean;
      conflict?: NameConflict;
    },
    content: UploadedContent,
  ) {
    const { userId, folderId, reservationId, conflict } = input;
    // With versioning, a taken name gets new bytes and keeps the old ones as a version;
    // replacing without versioning frees the old ones.
    const replaceTaken = async () => {
      const replaced = await files.addVersionByName(
        userId,
        folderId,
        input.name,
        content,
        input.versioning ? input.id : null,
        reservationId,
      );
      if (replaced === 'lease-lost') throw leaseLost();
      if (replaced !== 'no-such-file' && replaced.dropped) await deps.deleteQueuedBlobs([replaced.dropped]);
      return replaced;
    };
    // An explicit choice (docs/decisions/0050-name-clashes.md): `replace` keeps the old bytes
    // as a version, or puts the old file in Trash where the plan has no versions.
    const versionsOnReplace = conflict === undefined ? input.versioning || input.replace : conflict === 'replace' && input.versioning;
    if (versionsOnReplace) {
      const replaced = await replaceTaken();
      // The version's id is the upload's: a refusal after listing puts the old bytes back (receive).
      if (replaced !== 'no-such-file') return { ...replaced, versionId: input.versioning ? input.id : undefined };
    }
    const row = {
      ...content,
      id: input.id,
      user_id: userId,
      folder_id: folderId,
      name: input.name,
      created_at: content.updated_at,
      deleted_at: null,
      trashed_root: 0,
    };
    let storageUsed = 0;
    let trashed: string | undefined;
    let replacedMeanwhile: { row: FileRow; storageUsed: number } | undefined;
    const trashTakenAt = conflict === 'replace' && !input.versioning ? content.updated_at : undefined;
    const name = await firstFreeName(input.name, async (candidate) => {
      const completion = await files.insertUploaded({ ...row, name: candidate }, reservationId, { trashTakenAt });
      if (completion.outcome === 'name-taken' && conflict === 'fail') {
        const existing = await files.findLiveByName(userId, folderId, candidate);
        throw nameTaken(candidate, existing?.id ?? '');
      }
      if (completion.outcome === 'name-taken' && input.replace && conflict === undefined) {
        // Another request listed the name since: this upload replaces that file's bytes.
        const again = await replaceTaken();
        if (again === 'no-such-file')
          throw new AppError(409, 'NAME_TAKEN', `"${input.name}" changed while it was uploaded. Please try again.`);
        replacedMeanwhile = again;
        return true;
      }
      if (completion.outcome === 'name-taken') return false;
      if (completion.outcome === 'lease-lost') throw leaseLost();
      if (completion.outcome === 'folder-gone') {
        // The folder went to Trash while the bytes streamed: a file must never land inside
        // a deleted folder, where Trash would purge it without counting it.
        await folders.requireParent(userId, folderId);
        throw notFound('Folder not found', 'FOLDER_NOT_FOUND');
      }
      storageUsed = completion.storageUsed;
      trashed = completion.trashed;
      return true;
    });
    if (replacedMeanwhile) return replacedMeanwhile;
    return { row: { ...row, name }, storageUsed, trashed };
  }

  /** Removes a file this upload listed and then refused after all, with what it made a version of. */
  async function discard(userId: string, file: FileItem): Promise<void> {
    await deps.deleteQueuedBlobs(await files.discardUploaded(userId, file.id, clock.now().toISOString()));
  }

  /**
   * Refuses an upload on its declared size alone, before any byte of it is read
   * (docs/decisions/0018-early-answers.md): the plan's per-file limit (with the framing's
   * allowance), its uploads at once and the storage left, the last two held by a leased
   * reservation made atomically for every node (docs/decisions/0021-crash-safe-storage.md).
   * Renewed until released. Without a declared size, holds what the plan allows one file,
   * capped by the storage left (docs/decisions/0039-webdav-bounds-and-unknown-length.md).
   */
  async function reserve(
    userId: string,
    declaredBytes: number | undefined,
    options: ReserveOptions,
    plan?: PlanEntry,
  ): Promise<UploadReservation> {
    plan ??= plans.get(await deps.planIdOf(userId));
    const overhead = options.framing === 'multipart' ? MULTIPART_OVERHEAD : 0;
    const largestFile = options.largestFile ?? declaredBytes;
    if (largestFile !== undefined && plan.maxFileSize !== null && largestFile > plan.maxFileSize + overhead)
      throw tooLarge(plan.name, plan.maxFileSize);
    // Of unknown length (a chunked WebDAV PUT): as much as one file may take, the surplus given back when it is stored.
    const bytes = declaredBytes ?? plan.maxFileSize ?? plan.storageLimit;
    const reservation = { id: newId(), userId, bytes, blobKey: newId() };
    const request = {
      ...reservation,
      now: clock.now().toISOString(),
      leaseUntil: options.leaseUntil ?? leaseUntil(),
      storageLimit: plan.storageLimit,
      maxConcurrentUploads: options.slotHeld ? null : plan.maxConcurrentUploads,
    };
    const outcome = declaredBytes === undefined ? await reservations.reserveUpTo(request) : await reservations.reserve(request);
    if (outcome === 'too-many-uploads') throw tooManyUploads(plan);
    if (outcome === 'storage-full') throw storageFull(plan, await files.storageUsed(userId), declaredBytes ?? 1);
    return {
      ...reservation,
      ...(typeof outcome === 'number' ? { bytes: outcome, lengthUnknown: true } : {}),
      settled: false,
      storageLimit: plan.storageLimit,
      stopRenewing: options.leaseUntil ? () => {} : keepLeased(reservation.id),
    };
  }

  /**
   * Ends the hold: a reservation the upload settled is gone already; one it did not gives
   * its bytes back, and whatever it stored is deleted (queued first, in the same
   * transaction). Safe to call more than once.
   */
  async function release(reservation: UploadReservation): Promise<void> {
    reservation.stopRenewing();
    if (reservation.settled) return;
    const queued = await reservations.abandon(reservation.userId, reservation.id);
    if (queued) await deps.deleteQueuedBlobs([queued]);
  }

  /**
   * Whose drive a folder is for an upload of the caller: their own (null is their root), or
   * the owner's of a folder shared with them as an editor; a viewer's is 403 READ_ONLY_SHARE,
   * anything else 404.
   */
  async function destination(userId: string, folderId: string | null): Promise<UploadDestination> {
    if (folderId === null) return { ownerId: userId, folderId: null };
    const { ownerId } = await folders.writableFolder(userId, folderId);
    return { ownerId, folderId };
  }

  /**
   * The name and folder rules every upload passes before its bytes: a valid name, and a
   * live folder the caller may write into (see destination).
   */
  async function target(
    userId: string,
    folderId: string | null,
    fileName: string,
    conflict?: NameConflict,
  ): Promise<{ name: string; folderId: string | null; ownerId: string }> {
    const name = requireItemName(fileName, 'file');
    const { ownerId, folderId: parentId } = await destination(userId, folderId);
    // Refused before any byte is stored; a name taken while the bytes stream is refused at the end.
    const existing = conflict === 'fail' ? await files.findLiveByName(ownerId, parentId, name) : undefined;
    if (existing) throw nameTaken(existing.name, existing.id);
    return { name, folderId: parentId, ownerId };
  }

  /** The tail of every upload: the stored blob listed as a file (see listStored), and what the reaction is told. */
  async function list(
    plan: PlanEntry,
    input: {
      id: string;
      userId: string;
      folderId: string | null;
      name: string;
      declaredMimetype: string | undefined;
      reservationId: string;
      blobKey: string;
      blob: PutResult;
      replace: boolean;
      conflict?: NameConflict;
    },
  ) {
    const mimetype = resolveMimetype(input.declaredMimetype, input.name);
    const content = {
      mimetype,
      category: categorize(mimetype),
      size: input.blob.size,
      sha256: input.blob.sha256,
      crc32: input.blob.crc32,
      blob_key: input.blobKey,
      updated_at: clock.now().toISOString(),
    };
    const stored = await complete({ ...input, versioning: plan.capabilities.versioning }, content);
    const file = presentFile(stored.row);
    const trashed = 'trashed' in stored ? stored.trashed : undefined;
    const versionId = 'versionId' in stored ? stored.versionId : undefined;
    return {
      file,
      trashed,
      versionId,
      usage: { before: stored.storageUsed - file.size, after: stored.storageUsed, limit: plan.storageLimit },
    };
  }

  /** Why storing the bytes failed, in the user's terms: the per-file limit, the quota, or a body longer than it said. */
  async function refusalOf(error: unknown, plan: PlanEntry, reservation: UploadReservation): Promise<unknown> {
    if (!(error instanceof BlobTooLargeError)) return error;
    if (plan.maxFileSize !== null && error.maxBytes >= plan.maxFileSize) return tooLarge(plan.name, plan.maxFileSize);
    // Of unknown length, the body passed the storage that was left when it began.
    if (reservation.lengthUnknown)
      return storageFull(plan, (await files.storageUsed(reservation.userId)) - reservation.bytes, error.maxBytes + 1);
    return new AppError(400, 'BODY_LONGER_THAN_DECLARED', 'The upload is longer than its Content-Length');
  }

  /** What follows a kept upload: the owner's reaction (alerts count on their quota), and the shared folder's activity when someone else uploaded. */
  async function reacted(actorId: string, ownerId: string, file: FileItem, usage: UploadUsage): Promise<void> {
    await deps.uploaded(ownerId, file, usage);
    if (actorId !== ownerId && file.folderId !== null)
      await deps.recordFolderActivity?.({
        ownerId,
        folderId: file.folderId,
        actor: { id: actorId },
        action: 'uploaded',
        kind: 'file',
        name: file.originalName,
      });
  }

  /** A failure that is the body's, not ours, answered in the way in's words; anything else as it is. */
  function answerOf(error: unknown, cutOff: CutOffBody | undefined): unknown {
    if (!cutOff || error instanceof AppError || (error as { statusCode?: number }).statusCode) return error;
    // A client that goes away mid-upload is routine, not a fault of ours or theirs to look into.
    if (cutOff.clientGone()) cutOff.log.info({ err: error }, 'upload stopped by the client');
    // The disk, the database, the blob store or a bug: a 500, logged as an error.
    else if (!cutOff.isMalformed?.(error)) return error;
    else cutOff.log.warn({ err: error }, 'malformed upload body');
    return cutOff.answer();
  }

  return {
    reserve: (userId: string, declaredBytes: number | undefined, options: ReserveOptions) => reserve(userId, declaredBytes, options),
    release,
    destination,
    target,

    /**
     * One upload, whichever way it came in: held on its declared size before any byte
     * (reserve), its body read up to the file, the name and folder checked, the bytes
     * streamed to the blob store within the per-file limit and the reservation, listed as a
     * file (or as the new content of the same-named one), then the rest of the body read.
     * Any failure or client abort leaves nothing behind: the file is removed, the
     * reservation given back and its bytes deleted. The reaction (activity, alerts,
     * thumbnail) follows only an upload that is kept.
     */
    async receive(input: ReceiveInput): Promise<FileItem> {
      const { userId } = input;
      const known = input.folderId === undefined ? undefined : await destination(userId, input.folderId);
      // Read once per upload, so a plan change applies to the next one.
      let ownerId = known?.ownerId ?? userId;
      let plan = plans.get(await deps.planIdOf(ownerId));
      // Held before the body, unless the body is read first to learn whose drive it is (see readsFolderFirst).
      let reservation =
        known || !input.readsFolderFirst
          ? await reserve(ownerId, input.declaredBytes, { framing: input.framing, slotHeld: input.slotHeld }, plan)
          : undefined;
      let listed: Awaited<ReturnType<typeof list>> | undefined;
      try {
        input.onAccepted?.();
        const content = await input.content();
        const conflict = content.conflict ?? input.conflict;
        const to = await target(userId, input.folderId === undefined ? content.folderId : input.folderId, content.fileName, conflict);
        if (!reservation || to.ownerId !== ownerId) {
          // The body named the folder: the hold is its owner's, made before any byte of the file is read.
          const ownerPlan = plans.get(await deps.planIdOf(to.ownerId));
          const held = await reserve(to.ownerId, input.declaredBytes, { framing: input.framing, slotHeld: input.slotHeld }, ownerPlan);
          if (reservation) await release(reservation);
          [reservation, plan, ownerId] = [held, ownerPlan, to.ownerId];
        }
        const maxBytes = Math.min(reservation.bytes, plan.maxFileSize ?? Number.POSITIVE_INFINITY);
        let blob: PutResult;
        try {
          blob = await blobs.put(reservation.blobKey, content.body, { maxBytes, freeChunks: true });
        } catch (error) {
          throw await refusalOf(error, plan, reservation);
        }
        listed = await list(plan, {
          id: newId(),
          userId: ownerId,
          folderId: to.folderId,
          name: to.name,
          declaredMimetype: content.declaredMimetype,
          reservationId: reservation.id,
          blobKey: reservation.blobKey,
          blob,
          replace: input.replace ?? false,
          conflict,
        });
        reservation.settled = true;
        await input.rest?.();
      } catch (error) {
        // A new version is undone, the file keeping its old bytes; a new file is removed.
        if (listed?.versionId)
          await deps.deleteQueuedBlobs(await files.revertToVersion(ownerId, listed.file.id, listed.versionId, clock.now().toISOString()));
        else if (listed) await discard(ownerId, listed.file);
        // The file it replaced comes back out of Trash: a refused upload changes nothing.
        if (listed?.trashed) await files.untrashReplaced(ownerId, listed.trashed, clock.now().toISOString());
        throw answerOf(error, input.cutOff);
      } finally {
        if (reservation) await release(reservation);
      }
      await reacted(userId, ownerId, listed.file, listed.usage);
      return listed.file;
    },

    /**
     * A group of a batch's small files for the caller's own drive (POST /api/sync/uploads),
     * at a fraction of receive()'s cost per file: one hold of the quota for the group's
     * bytes, the blobs stored at once under keys of their own, then one transaction that
     * lists them all, settles the hold by the bytes listed and queues the refused ones'
     * blobs (insertUploadedMany). A refusal of one file is its result; a failure of the
     * group (the store, the database, a lost lease) throws, leaving nothing listed and the
     * blobs written deleted (or to the sweeper, as a copy's). The reaction is the caller's,
     * once per batch. 507 when the group does not fit: the caller then sends its files one by one.
     */
    async receiveGroup(userId: string, group: readonly GroupFile[]): Promise<GroupOutcome> {
      const plan = plans.get(await deps.planIdOf(userId));
      const results: Array<FileItem | AppError | undefined> = group.map(() => undefined);
      const accepted: number[] = [];
      const names = new Map<number, string>();
      group.forEach((file, index) => {
        try {
          names.set(index, requireItemName(file.name, 'file'));
          if (plan.maxFileSize !== null && file.size > plan.maxFileSize) throw tooLarge(plan.name, plan.maxFileSize);
          accepted.push(index);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          results[index] = error;
        }
      });
      const bytes = accepted.reduce((total, index) => total + group[index]!.size, 0);
      const largestFile = accepted.reduce((largest, index) => Math.max(largest, group[index]!.size), 0);
      const reservation = await reserve(userId, bytes, { framing: 'raw', slotHeld: true, largestFile }, plan);
      const written: string[] = [];
      try {
        const now = clock.now().toISOString();
        const rows: Array<{ index: number; row: FileRow; keepBoth: boolean }> = [];
        for (let start = 0; start < accepted.length; start += GROUP_PUTS_AT_ONCE) {
          // Settled, not raced: a failure is thrown only once every put of the slice is done, so each key written is known.
          const puts = await Promise.allSettled(
            accepted.slice(start, start + GROUP_PUTS_AT_ONCE).map(async (index) => {
              const file = group[index]!;
              const blobKey = newId();
              // Before the put: a failed one may have left part of its bytes.
              written.push(blobKey);
              const blob = await blobs.put(blobKey, Readable.from(file.chunks), { maxBytes: file.size });
              const mimetype = resolveMimetype(file.declaredMimetype, file.name);
              const name = names.get(index)!;
              const row: FileRow = {
                id: newId(),
                user_id: userId,
                folder_id: file.folderId,
                name,
                mimetype,
                category: categorize(mimetype),
                size: blob.size,
                sha256: blob.sha256,
                crc32: blob.crc32,
                blob_key: blobKey,
                created_at: now,
                updated_at: now,
                deleted_at: null,
                trashed_root: 0,
              };
              rows.push({ index, row, keepBoth: file.conflict === 'keep-both' });
            }),
          );
          const failed = puts.find((put) => put.status === 'rejected');
          if (failed) throw failed.reason;
        }
        rows.sort((a, b) => a.index - b.index);
        // Bytes that differ from the hash sent are refused before the listing; their blobs are deleted after it.
        const matching = rows.filter(({ index, row }) => {
          const expected = group[index]!.contentHash;
          if (expected === undefined || expected === row.sha256) return true;
          results[index] = badRequest(
            'The bytes received do not have the contentHash sent: the file changed while it was sent, or was cut',
            'HASH_MISMATCH',
          );
          return false;
        });
        const listing = await files.insertUploadedMany(userId, matching, reservation.id);
        if (listing.outcome === 'lease-lost') throw leaseLost();
        reservation.settled = true;
        let listedBytes = 0;
        for (const [at, result] of listing.results.entries()) {
          const { index } = matching[at]!;
          if ('listed' in result) {
            results[index] = presentFile(result.listed);
            listedBytes += Number(result.listed.size);
          } else if (result.refused === 'folder-gone') results[index] = notFound('Folder not found', 'FOLDER_NOT_FOUND');
          else
            results[index] = nameTaken(
              group[index]!.name,
              (await files.findLiveByName(userId, group[index]!.folderId, group[index]!.name))?.id ?? '',
            );
        }
        // Queued in the listing's transaction; deleted now rather than at the next run of the queue.
        await deps.deleteQueuedBlobs(listing.refusedKeys);
        // Never queued (refused before the listing): deleted here, or by the sweeper.
        await Promise.allSettled(rows.filter((entry) => !matching.includes(entry)).map(({ row }) => blobs.delete(row.blob_key)));
        return {
          results: results.map((result) => result!),
          usage: { before: listing.storageUsed - listedBytes, after: listing.storageUsed, limit: plan.storageLimit },
        };
      } catch (error) {
        // What is not deleted here is left unreferenced: the sweeper deletes it after its grace period.
        if (!reservation.settled) await Promise.allSettled(written.map((key) => blobs.delete(key)));
        throw error;
      } finally {
        await release(reservation);
      }
    },

    /**
     * Lists bytes stored under the reservation's blob key by a way in that stores them
     * itself (tus, over many requests) as a file named by the usual rules (`(1)` on a clash,
     * a new version with versioning), settling the reservation in the same transaction.
     * `id` becomes the new file's id, or the new version's: a caller that may finish twice
     * finds what a first run listed by it (lease-lost then means it is listed).
     */
    async listStored(input: {
      id: string;
      /** The drive's owner: whose quota the reservation holds. */
      userId: string;
      /** Who uploaded, when not the owner (an editor of a shared folder). */
      actorId?: string;
      folderId: string | null;
      name: string;
      declaredMimetype: string | undefined;
      reservation: Pick<UploadReservation, 'id' | 'blobKey'>;
      blob: PutResult;
      /** Chosen at creation; `fail` was checked then, so a name taken since gets the next free name instead. */
      conflict?: NameConflict;
    }): Promise<FileItem> {
      const { reservation } = input;
      const plan = plans.get(await deps.planIdOf(input.userId));
      const conflict = input.conflict === 'fail' ? 'keep-both' : input.conflict;
      const { file, usage } = await list(plan, {
        ...input,
        conflict,
        reservationId: reservation.id,
        blobKey: reservation.blobKey,
        replace: false,
      });
      await reacted(input.actorId ?? input.userId, input.userId, file, usage);
      return file;
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
