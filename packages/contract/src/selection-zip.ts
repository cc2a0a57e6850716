import { Type, type Static } from 'typebox';
import { Id, Timestamp } from './common.ts';

/** The most items one selection's zip may name, files and folders together. */
export const SELECTION_ZIP_MAX_ITEMS = 1000;

/**
 * POST /api/downloads/zip and /api/downloads/zip-link: items of the caller's own drive
 * (not in Trash) to download as one zip; files go at its top, each folder as its subtree.
 */
export const SelectionZipBody = Type.Object({
  files: Type.Array(Id, { maxItems: SELECTION_ZIP_MAX_ITEMS }),
  folders: Type.Array(Id, { maxItems: SELECTION_ZIP_MAX_ITEMS }),
});
export type SelectionZipBody = Static<typeof SelectionZipBody>;

/**
 * POST /api/downloads/zip-link: `url` (GET, no bearer) while the selection is short enough
 * for an address; `token` always works as the `token` field of a form POST to /api/downloads.
 */
export const SelectionZipLinkResponse = Type.Object({ url: Type.String(), token: Type.String(), expiresAt: Timestamp });
export type SelectionZipLinkResponse = Static<typeof SelectionZipLinkResponse>;
