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

/** A file's public link (the body as it always was, `shareType` optional), or (+) a private share with an e-mail. */
export const ShareFileBody = Type.Union([
  Type.Object({
    shareType: Type.Optional(Type.Literal('public')),
    /** Hours until the link stops working; default 24. */
    expiresIn: Type.Optional(ExpiresIn),
    /** Only on plans with password-protected links. */
    password: Type.Optional(SharePassword),
  }),
  Type.Object({ shareType: Type.Literal('private'), email: ShareEmail }),
]);
export type ShareFileBody = Static<typeof ShareFileBody>;

export const ShareFolderBody = Type.Union([
  Type.Object({
    shareType: Type.Literal('public'),
    /** Hours until the link stops working; absent: the longest the plan allows. */
    expiresIn: Type.Optional(ExpiresIn),
    password: Type.Optional(SharePassword),
  }),
  Type.Object({ shareType: Type.Literal('private'), email: ShareEmail }),
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
});
export type Share = Static<typeof Share>;

export const PrivateShareResponse = Type.Object({ message: Type.String(), share: Share });
export type PrivateShareResponse = Static<typeof PrivateShareResponse>;

export const SharesResponse = Type.Object({ shares: Type.Array(Share) });
export type SharesResponse = Static<typeof SharesResponse>;

export const ShareIdParams = Type.Object({ id: Id });

/** How the owner is named: the first name always, the last name when their privacy allows. */
export const ShareOwner = Type.Object({ firstName: Type.String(), lastName: Type.Optional(Type.String()) });
export type ShareOwner = Static<typeof ShareOwner>;

export const SharedFolder = Type.Intersect([Folder, Type.Object({ shareId: Id, owner: ShareOwner })]);
export type SharedFolder = Static<typeof SharedFolder>;

/** (+) A file shared on its own: `folderId` is null, the owner's folders stay theirs. */
export const SharedFile = Type.Intersect([FileItem, Type.Object({ shareId: Id, owner: ShareOwner })]);
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
