import { Type, type Static } from 'typebox';
import { Id, NullableId, NullableString, Timestamp } from './common.ts';
import { FileItem } from './files.ts';
import { Folder } from './folders.ts';
import { FilePreview } from './thumbnails.ts';
import { PASSWORD_MIN_LENGTH } from './validation.ts';

/** Link lifetimes are whole hours; the plan sets the longest (docs/product.md#link-rules). */
export const DEFAULT_LINK_HOURS = 24;
export const MAX_LINK_HOURS = 720;
export const SHARE_PASSWORD_MAX_LENGTH = 128;

const ExpiresIn = Type.Integer({ minimum: 1, maximum: MAX_LINK_HOURS });
/** As long as an account's password at least: a link password guards the same files. */
const SharePassword = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: SHARE_PASSWORD_MAX_LENGTH });

/** A private share's recipient: an e-mail address, whether or not it has an account. */
const ShareEmail = Type.String({ maxLength: 320 });

/**
 * (+++) What a person a share names may do (docs/decisions/0061-share-roles.md): a viewer
 * browses, previews and downloads; an editor also uploads, makes folders, renames, moves
 * within the shared folder, deletes to the owner's Trash and makes new versions.
 */
export const PRIVATE_ROLES = ['viewer', 'editor'] as const;
export const PrivateRole = Type.Union([Type.Literal('viewer'), Type.Literal('editor')]);
export type PrivateRole = Static<typeof PrivateRole>;

/**
 * (+++) What a link's visitors may do: `view` (browse and download, as links always did),
 * `view-only` (display only: no download route answers), `upload` (a file request: drop
 * files, see none) and `edit` (view and upload). Upload and edit are for folders.
 */
export const LINK_ROLES = ['view', 'view-only', 'upload', 'edit'] as const;
export const LinkRole = Type.Union([Type.Literal('view'), Type.Literal('view-only'), Type.Literal('upload'), Type.Literal('edit')]);
export type LinkRole = Static<typeof LinkRole>;

/** (+++) Downloads after which a link answers 410. */
export const MAX_DOWNLOAD_LIMIT = 1_000_000;
const DownloadLimit = Type.Integer({ minimum: 1, maximum: MAX_DOWNLOAD_LIMIT });
/** (+++) An upload link's message to its visitors. */
export const SHARE_MESSAGE_MAX_LENGTH = 1000;
const ShareMessage = Type.String({ maxLength: SHARE_MESSAGE_MAX_LENGTH });

/** (+++) The private share's fields shared by files and folders. */
const PrivateShareFields = {
  shareType: Type.Literal('private'),
  email: ShareEmail,
  /** Without it, `viewer`, as shares always were. */
  role: Type.Optional(PrivateRole),
  /** May the person share it further; off by default. */
  mayReshare: Type.Optional(Type.Boolean()),
};
/** (+++) A link's settings beyond its expiry and password. */
const LinkSettingsFields = {
  /** Without it, `view`, as links always were. */
  role: Type.Optional(LinkRole),
  downloadLimit: Type.Optional(DownloadLimit),
  message: Type.Optional(ShareMessage),
};

/** A file's public link (the body as it always was, `shareType` optional), or (+) a private share with an e-mail. */
export const ShareFileBody = Type.Union([
  Type.Object({
    shareType: Type.Optional(Type.Literal('public')),
    /** Hours until the link stops working; default 24. */
    expiresIn: Type.Optional(ExpiresIn),
    /** Only on plans with password-protected links. */
    password: Type.Optional(SharePassword),
    ...LinkSettingsFields,
  }),
  Type.Object(PrivateShareFields),
]);
export type ShareFileBody = Static<typeof ShareFileBody>;

export const ShareFolderBody = Type.Union([
  Type.Object({
    shareType: Type.Literal('public'),
    /** Hours until the link stops working; absent: the longest the plan allows. */
    expiresIn: Type.Optional(ExpiresIn),
    password: Type.Optional(SharePassword),
    ...LinkSettingsFields,
  }),
  Type.Object(PrivateShareFields),
]);
export type ShareFolderBody = Static<typeof ShareFolderBody>;

export const ShareLinkResponse = Type.Object({
  shareUrl: Type.String(),
  shareId: Id,
  /** null only for folder links made before every link expired (no expiry). */
  expiresAt: NullableString(Type.String({ format: 'date-time' })),
});
export type ShareLinkResponse = Static<typeof ShareLinkResponse>;

export const Share = Type.Object({
  id: Id,
  kind: Type.Union([Type.Literal('link'), Type.Literal('private')]),
  itemType: Type.Union([Type.Literal('file'), Type.Literal('folder')]),
  itemId: Id,
  name: Type.String(),
  shareUrl: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  expiresAt: NullableString(Type.String({ format: 'date-time' })),
  createdAt: Timestamp,
  passwordProtected: Type.Boolean(),
  /** Only when the owner's privacy.shareAnalytics is on. */
  downloadCount: Type.Optional(Type.Integer()),
  /** (+++) `viewer` | `editor` for private shares, a LinkRole for links. */
  role: Type.Union([PrivateRole, LinkRole]),
  /** (+++) Links: downloads after which the link answers 410; null: none. */
  downloadLimit: Type.Union([Type.Integer(), Type.Null()]),
  /** (+++) Files received through the link (upload and edit links; 0 otherwise). */
  uploadCount: Type.Integer(),
  /** (+++) Private shares: whether the person may share it further. */
  mayReshare: Type.Optional(Type.Boolean()),
  /** (+++) Upload links: the message their visitors read. */
  message: Type.Optional(Type.String()),
});
export type Share = Static<typeof Share>;

/**
 * (+++) `PATCH /api/shares/:id`: a share's settings changed in place, its address kept. For a
 * link: `role`, `expiresAt` (null: the plan's longest), `downloadLimit` (null: none),
 * `password` (null: none), `message`; for a private share: `role`, `mayReshare`.
 */
export const UpdateShareBody = Type.Object(
  {
    role: Type.Optional(Type.Union([PrivateRole, LinkRole])),
    expiresAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    downloadLimit: Type.Optional(Type.Union([DownloadLimit, Type.Null()])),
    password: Type.Optional(Type.Union([SharePassword, Type.Null()])),
    message: Type.Optional(Type.Union([ShareMessage, Type.Null()])),
    mayReshare: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateShareBody = Static<typeof UpdateShareBody>;
export const UpdateShareResponse = Type.Object({ share: Share });
export type UpdateShareResponse = Static<typeof UpdateShareResponse>;

export const PrivateShareResponse = Type.Object({ message: Type.String(), share: Share });
export type PrivateShareResponse = Static<typeof PrivateShareResponse>;

export const SharesResponse = Type.Object({ shares: Type.Array(Share) });
export type SharesResponse = Static<typeof SharesResponse>;

export const ShareIdParams = Type.Object({ id: Id });

/** How the owner is named: the first name always, the last name when their privacy allows. */
export const ShareOwner = Type.Object({ firstName: Type.String(), lastName: Type.Optional(Type.String()) });
export type ShareOwner = Static<typeof ShareOwner>;

/** (+++) The caller's role in what is shared with them, and whether they may share it further. */
const SharedWithMeFields = { shareId: Id, owner: ShareOwner, role: PrivateRole, mayReshare: Type.Boolean() };

export const SharedFolder = Type.Intersect([Folder, Type.Object(SharedWithMeFields)]);
export type SharedFolder = Static<typeof SharedFolder>;

/** (+) A file shared on its own: `folderId` is null, the owner's folders stay theirs. */
export const SharedFile = Type.Intersect([FileItem, Type.Object(SharedWithMeFields)]);
export type SharedFile = Static<typeof SharedFile>;

export const SharedWithMeResponse = Type.Object({ folders: Type.Array(SharedFolder), files: Type.Array(SharedFile) });
export type SharedWithMeResponse = Static<typeof SharedWithMeResponse>;

// --- Public share pages (no account) ---------------------------------------------------

export const ShareTokenParams = Type.Object({ token: Type.String({ minLength: 16, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }) });
export type ShareTokenParams = Static<typeof ShareTokenParams>;

/** An access grant after the password, as header X-Share-Access or query `access`. */
export const ShareAccessQuery = Type.Object({ access: Type.Optional(Type.String({ maxLength: 2048 })) });

export const PublicShare = Type.Object({
  type: Type.Union([Type.Literal('file'), Type.Literal('folder')]),
  name: Type.String(),
  /** Files only. */
  size: Type.Optional(Type.Integer()),
  sizeFormatted: Type.Optional(Type.String()),
  mimetype: Type.Optional(Type.String()),
  /** (++) Files only: as FileItem's preview and contentTag. */
  preview: Type.Optional(FilePreview),
  contentTag: Type.Optional(Type.String()),
  expiresAt: NullableString(Type.String({ format: 'date-time' })),
  owner: ShareOwner,
  /** The shared folder's id: the root of its items. */
  folderId: Type.Optional(Id),
  /** (+++) What a visitor may do: `view` unless the owner chose otherwise. */
  role: LinkRole,
  /** (+++) Upload links: the owner's message to the visitor. */
  message: Type.Optional(Type.String()),
  /** (+++) Upload and edit links: the largest file the owner's plan takes, in bytes. */
  maxFileSize: Type.Optional(Type.Integer()),
});
export type PublicShare = Static<typeof PublicShare>;

export const PublicItemsQuery = Type.Object({
  folderId: Type.Optional(Id),
  access: Type.Optional(Type.String({ maxLength: 2048 })),
});

export const PublicItemsResponse = Type.Object({
  folders: Type.Array(Folder),
  files: Type.Array(FileItem),
  /** From the shared folder down to the one listed: the visitor's breadcrumbs. */
  path: Type.Array(Type.Object({ id: Id, name: Type.String(), parentId: NullableId })),
});
export type PublicItemsResponse = Static<typeof PublicItemsResponse>;

export const PublicFileParams = Type.Object({ token: ShareTokenParams.properties.token, fileId: Id });

export const ShareAccessBody = Type.Object({ password: Type.String({ maxLength: SHARE_PASSWORD_MAX_LENGTH }) });
export const ShareAccessResponse = Type.Object({ accessToken: Type.String(), expiresAt: Timestamp });
export type ShareAccessResponse = Static<typeof ShareAccessResponse>;

/** The body of a 401 on a protected link. */
export const PasswordRequiredBody = Type.Object({
  error: Type.String(),
  code: Type.Optional(Type.String()),
  passwordRequired: Type.Literal(true),
});

/** (+++) What `POST /api/public/shares/:token/files` answers: only what the visitor sent. */
export const PublicUploadResponse = Type.Object({ file: Type.Object({ name: Type.String(), size: Type.Integer() }) });
export type PublicUploadResponse = Static<typeof PublicUploadResponse>;

/** (+++) One thing done inside a shared folder, as its owner and members see it. */
export const FolderActivityEntry = Type.Object({
  id: Id,
  action: Type.Union([
    Type.Literal('uploaded'),
    Type.Literal('created'),
    Type.Literal('renamed'),
    Type.Literal('moved'),
    Type.Literal('deleted'),
    Type.Literal('updated'),
  ]),
  kind: Type.Union([Type.Literal('file'), Type.Literal('folder')]),
  name: Type.String(),
  /** Who did it: an account's name, or the name a link's visitor gave ("Someone" without one). */
  actor: Type.Object({ name: Type.String(), isLinkVisitor: Type.Boolean() }),
  /** The folder the item was in (for a move: the one it went to). */
  folderId: Id,
  /** A rename's old name, a move's old folder, as the action has them. */
  details: Type.Record(Type.String(), Type.String()),
  createdAt: Timestamp,
});
export type FolderActivityEntry = Static<typeof FolderActivityEntry>;
export const FolderActivityResponse = Type.Object({ activity: Type.Array(FolderActivityEntry) });
export type FolderActivityResponse = Static<typeof FolderActivityResponse>;
