import type { Readable } from 'node:stream';
import type { FileItem } from '@cloudvault/contract/files';
import type { PublicUploadResponse } from '@cloudvault/contract/shares';
import type { FoldersTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { countAttempts, type FailureLimiter } from '../../lib/failure-limiter.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { RecordFolderActivity } from '../activity/folder-activity.service.ts';
import type { FoldersService } from '../folders/folders.service.ts';
import type { ReceiveInput, UploadsService } from '../files/uploads.service.ts';
import type { FileRequestNotices } from '../notifications/file-request-notices.service.ts';
import type { ResolvedShare } from './public-links.service.ts';
import type { PublicUploadsRepository } from './public-uploads.repository.ts';

/** The longest name a visitor may sign their files with. */
export const UPLOADER_NAME_MAX_LENGTH = 100;
/** Shown for a visitor who gave no name. */
const UNNAMED_VISITOR = 'Someone';
/** Link roles whose visitors may send files. */
const RECEIVING_ROLES: readonly string[] = ['upload', 'edit'];
const CONTROL_CHARACTERS = /\p{Cc}/gu;

/** What a visitor's multipart body says before the file's bytes: who sends it, where it goes, the file. */
export interface LinkUploadContent {
  uploaderName: string | undefined;
  folderId: string | null;
  fileName: string;
  declaredMimetype: string | undefined;
  body: Readable;
}

/** A multipart way in, as the route reads it (see uploads.service.ts ReceiveInput). */
export interface LinkUploadBody extends Pick<ReceiveInput, 'declaredBytes' | 'onAccepted' | 'rest' | 'cutOff'> {
  content(): Promise<LinkUploadContent>;
}

/** A link that receives files, after every check: its share, its owner and its folder. */
export type ReceivingLink = Extract<ResolvedShare, { type: 'folder' }>;

export interface PublicUploadsDeps {
  links: { resolve(token: string, accessToken: string | undefined): Promise<ResolvedShare> };
  uploads: Pick<UploadsService, 'receive'>;
  folders: Pick<FoldersService, 'pathTo'>;
  rows: PublicUploadsRepository;
  notices: FileRequestNotices;
  /** Uploads per link and visitor address (policies.ts LINK_UPLOADS). */
  uploadsPerVisitor: FailureLimiter;
  /** Uploads per link from every address together. */
  uploadsPerLink: FailureLimiter;
  recordFolderActivity: RecordFolderActivity;
  clock: Clock;
  log: ServiceLog;
}

const uploadsNotAllowed = () => new AppError(403, 'UPLOADS_NOT_ALLOWED', 'This link lets you look at what is shared, not add files to it.');

/** A visitor's name as it is kept and shown: no control characters, trimmed, at most 100 characters. */
export function cleanUploaderName(value: string | undefined): string | undefined {
  const cleaned = value?.replace(CONTROL_CHARACTERS, '').trim();
  if (!cleaned) return undefined;
  if ([...cleaned].length > UPLOADER_NAME_MAX_LENGTH)
    throw badRequest(`Your name can be at most ${UPLOADER_NAME_MAX_LENGTH} characters`, 'UPLOADER_NAME_TOO_LONG');
  return cleaned;
}

/**
 * Visitors sending files through an upload link (a file request) or an edit link (issue 38,
 * "Links, with roles"). What they send is the owner's: it goes through the one upload path
 * (docs/decisions/0042-one-upload-path.md) as the owner's upload, on the owner's quota and
 * plan, refused before any byte when it does not fit; a taken name gets the next free one,
 * never replacing or versioning the owner's file. Uploads are limited per link and per
 * visitor address; each file received is counted on the link, told to the owner in a
 * batched notice and written to the folder's activity. Nothing is answered back but the
 * name and size the file was kept under.
 */
export function createPublicUploadsService(deps: PublicUploadsDeps) {
  const { rows } = deps;

  /** The link, if it may receive files: 404, 410 or 401 as every public route, 403 for a link that only shows. */
  async function receivingLink(token: string, accessToken: string | undefined): Promise<ReceivingLink> {
    const resolved = await deps.links.resolve(token, accessToken);
    if (resolved.type !== 'folder' || !RECEIVING_ROLES.includes(resolved.share.role ?? 'view')) throw uploadsNotAllowed();
    return resolved;
  }

  /** Counts the upload against the link's limits before anything else is done for it (429 past them). */
  async function admit(link: ReceivingLink, ip: string): Promise<void> {
    // The link's own window first, so a link under attack creates no window per address.
    await countAttempts([deps.uploadsPerLink, link.share.id], [deps.uploadsPerVisitor, `${link.share.id}:${ip}`]);
  }

  /**
   * Where the file goes: the link's folder, or (an edit link only) a folder inside it. An
   * upload link's visitors see no folders, so any other folder is one they cannot reach: 404.
   */
  async function destination(link: ReceivingLink, folderId: string | null): Promise<FoldersTable> {
    const root = link.folder;
    if (folderId === null || folderId === root.id) return root;
    if (link.share.role !== 'edit') throw notFound('Folder not found', 'FOLDER_NOT_FOUND');
    const path = await deps.folders.pathTo(link.ownerId, folderId);
    if (!path.some((folder) => folder.id === root.id)) throw notFound('Folder not found', 'FOLDER_NOT_FOUND');
    return path[path.length - 1] as FoldersTable;
  }

  /** After a file is kept: counted on the link, told to the owner, written to the folder's activity. Never fails the upload. */
  async function received(
    link: ReceivingLink,
    file: Pick<FileItem, 'originalName'>,
    folderId: string,
    uploaderName: string | undefined,
    uploadId?: string,
  ): Promise<void> {
    const name = uploaderName ?? UNNAMED_VISITOR;
    try {
      const notice = { ownerId: link.ownerId, shareId: link.share.id, folder: link.folder.name, uploaderName: name };
      const wanted = await deps.notices.wanted(link.ownerId);
      const counted = await rows.countReceived(link.share.id, {
        uploadId,
        addNotice: wanted ? (trx) => deps.notices.add(trx, notice) : undefined,
      });
      if (!counted) return;
    } catch (error) {
      deps.log.error({ err: error, shareId: link.share.id }, 'a file received through a link was not counted or told to its owner');
      return;
    }
    await deps.recordFolderActivity({
      ownerId: link.ownerId,
      folderId,
      actor: { id: null, name },
      action: 'uploaded',
      kind: 'file',
      name: file.originalName,
    });
  }

  return {
    receivingLink,

    /** One file in a multipart body: admitted, held on the owner's quota, stored and listed as the owner's (201). */
    async receive(token: string, accessToken: string | undefined, ip: string, way: LinkUploadBody): Promise<PublicUploadResponse> {
      const link = await receivingLink(token, accessToken);
      await admit(link, ip);
      let uploaderName: string | undefined;
      let folderId = link.folder.id;
      const file = await deps.uploads.receive({
        ...way,
        userId: link.ownerId,
        framing: 'multipart',
        // Never over the owner's file: a taken name gets "name (1).ext".
        conflict: 'keep-both',
        content: async () => {
          const content = await way.content();
          uploaderName = cleanUploaderName(content.uploaderName);
          folderId = (await destination(link, content.folderId)).id;
          return { ...content, folderId, conflict: 'keep-both' };
        },
      });
      await received(link, file, folderId, uploaderName);
      return { file: { name: file.originalName, size: file.size } };
    },

    /**
     * A resumable upload through the link, before its bytes: admitted, its folder checked;
     * answers what the resumable upload is made with, as the owner's.
     */
    async prepareResumable(
      token: string,
      accessToken: string | undefined,
      ip: string,
      input: { folderId: string | null; uploaderName: string | undefined },
    ): Promise<{ link: ReceivingLink; folderId: string; uploaderName: string | undefined }> {
      const link = await receivingLink(token, accessToken);
      await admit(link, ip);
      const folder = await destination(link, input.folderId);
      return { link, folderId: folder.id, uploaderName: cleanUploaderName(input.uploaderName) };
    },

    /** Ties a new resumable upload to its link and sender. */
    async recordResumable(link: ReceivingLink, uploadId: string, uploaderName: string | undefined): Promise<void> {
      await rows.insert({
        upload_id: uploadId,
        share_id: link.share.id,
        uploader_name: uploaderName ?? null,
        counted: 0,
        created_at: deps.clock.now().toISOString(),
      });
    },

    /** The link's resumable upload, for a request that carries the link's token; one of another link is 404. */
    async requireResumable(token: string, accessToken: string | undefined, uploadId: string): Promise<ReceivingLink> {
      const link = await receivingLink(token, accessToken);
      if (!(await rows.find(link.share.id, uploadId))) throw notFound('Upload not found', 'UPLOAD_NOT_FOUND');
      return link;
    },

    /** A resumable upload of the link listed as a file: counted and told once, whichever request or node sees it first. */
    async resumableFinished(link: ReceivingLink, uploadId: string, file: FileItem): Promise<void> {
      const row = await rows.find(link.share.id, uploadId);
      if (!row || row.counted) return;
      await received(link, file, file.folderId ?? link.folder.id, row.uploader_name ?? undefined, uploadId);
    },
  };
}

export type PublicUploadsService = ReturnType<typeof createPublicUploadsService>;
