import type { ShareOwner } from '@cloudvault/contract/shares';

const BASE = '/api/public/shares';

/**
 * Where a visitor's browser downloads from: the whole share (a file, or a folder as a zip)
 * or one file inside a shared folder. A plain address, so the browser streams it to disk;
 * an unlocked password link carries its grant as `access` (a link cannot send a header).
 */
export function publicDownloadHref(token: string, { fileId, access }: { fileId?: string; access?: string | null } = {}): string {
  const path = fileId
    ? `${BASE}/${encodeURIComponent(token)}/files/${encodeURIComponent(fileId)}/download`
    : `${BASE}/${encodeURIComponent(token)}/download`;
  return access ? `${path}?access=${encodeURIComponent(access)}` : path;
}

/**
 * Where a view-only link's files are drawn from (the viewer's <img>, <video>, pdf.js): the
 * display route, which serves them inline for the page and never as a download.
 */
export function publicViewHref(token: string, { fileId, access }: { fileId?: string; access?: string | null } = {}): string {
  const path = fileId
    ? `${BASE}/${encodeURIComponent(token)}/files/${encodeURIComponent(fileId)}/view`
    : `${BASE}/${encodeURIComponent(token)}/view`;
  return access ? `${path}?access=${encodeURIComponent(access)}` : path;
}

/** The owner as the server chose to show them: the first name, and the last when allowed. */
export function ownerName(owner: ShareOwner): string {
  return owner.lastName ? `${owner.firstName} ${owner.lastName}` : owner.firstName;
}

/** Whether an expiry has passed; `null` never expires. */
export function hasExpired(expiresAt: string | null, now: Date): boolean {
  return expiresAt !== null && new Date(expiresAt).getTime() <= now.getTime();
}
