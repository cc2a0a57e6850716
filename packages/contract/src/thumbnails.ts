import { Type, type Static } from 'typebox';

/**
 * (++) How the web shows a file: an image (a thumbnail, the large size in the viewer), a
 * PDF's first page, a video or an audio player, text, or nothing (null, an icon). Decided by
 * the file's type, which the server resolves from the extension when the upload declared none.
 */
export const FilePreview = Type.Union([
  Type.Literal('image'),
  Type.Literal('pdf'),
  Type.Literal('video'),
  Type.Literal('audio'),
  Type.Literal('text'),
  Type.Null(),
]);
export type FilePreview = Static<typeof FilePreview>;

/** small: at most 256 px on the long side (grid tiles); large: at most 1280 px (the viewer's first paint, phones). */
export const ThumbnailSize = Type.Union([Type.Literal('small'), Type.Literal('large')]);
export type ThumbnailSize = Static<typeof ThumbnailSize>;

/**
 * `size` defaults to small. `v` is ignored by the server: the web appends the file's
 * `contentTag` there so the URL, and so every cache, changes with the file's content.
 * `access` is a password-protected link's grant, as on its download routes.
 */
export const ThumbnailQuery = Type.Object({
  size: Type.Optional(ThumbnailSize),
  v: Type.Optional(Type.String({ maxLength: 64 })),
  access: Type.Optional(Type.String({ maxLength: 2048 })),
});
export type ThumbnailQuery = Static<typeof ThumbnailQuery>;
