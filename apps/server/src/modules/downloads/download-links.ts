import { randomBytes } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import { hs256Key, numericDate, signHs256, verifyJwt } from '../../lib/hs256-jwt.ts';
import type { Download } from './download-responses.ts';

/** Long enough to start a download, short enough that a leaked link is soon useless. */
export const DOWNLOAD_LINK_LIFETIME_MS = 5 * 60 * 1000;
const AUDIENCE = 'cloudvault-download';

/**
 * What a link names: an item of a kind some module serves (`file`, `folder`, `export`,
 * `version`), whose owner is `userId`. `fileId` is the file a version belongs to.
 */
export interface DownloadTarget {
  kind: string;
  id: string;
  userId: string;
  fileId?: string;
}

/**
 * What the module owning a kind answers for one of its links: the bytes to send, checked
 * again at download time (a file moved to Trash since is its own 404), or null when the
 * link does not name an item of that kind.
 */
export type DownloadOf = (target: DownloadTarget) => Promise<Download | null>;

/**
 * Signed, short-lived download URLs. A browser cannot attach the bearer token to a
 * native download, and fetching into memory would hold the whole file; a link lets the
 * browser's own download manager stream to disk, with Range for resuming. Each module
 * that makes links registers how its kind is served, so this one knows none of them.
 */
export function createDownloadLinks(secret: string, clock: Clock, ownerActive: (userId: string) => Promise<boolean> = async () => true) {
  const key = hs256Key(secret);
  const served = new Map<string, DownloadOf>();

  function verify(token: string): DownloadTarget | null {
    const payload = verifyJwt(token, key, { now: clock.now(), audience: AUDIENCE });
    if (!payload) return null;
    const { kind, id, sub, fileId } = payload;
    if (typeof kind !== 'string' || typeof id !== 'string' || typeof sub !== 'string') return null;
    return { kind, id, userId: sub, ...(typeof fileId === 'string' ? { fileId } : {}) };
  }

  return {
    async create(target: DownloadTarget): Promise<{ url: string; expiresAt: string }> {
      const expiresAt = new Date(clock.now().getTime() + DOWNLOAD_LINK_LIFETIME_MS);
      const token = signHs256(
        {
          kind: target.kind,
          id: target.id,
          ...(target.fileId !== undefined ? { fileId: target.fileId } : {}),
          sub: target.userId,
          aud: AUDIENCE,
          iat: numericDate(clock.now()),
          exp: numericDate(expiresAt),
          // Every link its own address: two made in one second for a file whose content
          // changed between them would otherwise be one URL, and the browser's cache would
          // answer a Range on the second from the first's bytes (a viewer redrawing new content).
          jti: randomBytes(9).toString('base64url'),
        },
        key,
      );
      return { url: `/api/downloads/${token}`, expiresAt: expiresAt.toISOString() };
    },

    /** Called by the module that makes links of `kind`, when its routes are registered. */
    serve(kind: string, downloadOf: DownloadOf): void {
      served.set(kind, downloadOf);
    },

    /** What the token names; null when it is forged, expired, of a kind no module serves, or its owner is suspended. */
    async resolve(token: string): Promise<Download | null> {
      const target = verify(token);
      const downloadOf = target && served.get(target.kind);
      // A suspended owner's links stop at once, like their sessions (docs/decisions/0029-operator-console.md).
      return downloadOf && (await ownerActive(target.userId)) ? downloadOf(target) : null;
    },
  };
}

export type DownloadLinks = ReturnType<typeof createDownloadLinks>;
