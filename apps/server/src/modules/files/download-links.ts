import { SignJWT, jwtVerify } from 'jose';
import type { Clock } from '../../lib/clock.ts';

/** Long enough to start a download, short enough that a leaked link is soon useless. */
export const DOWNLOAD_LINK_LIFETIME_MS = 5 * 60 * 1000;
const AUDIENCE = 'cloudvault-download';

/** A file, a folder as zip, the whole account's export (id = the user), or a file's earlier version. */
export type DownloadTarget =
  | { kind: 'file' | 'folder' | 'export'; id: string; userId: string }
  | { kind: 'version'; id: string; fileId: string; userId: string };

/**
 * Signed, short-lived download URLs. A browser cannot attach the bearer token to a
 * native download, and fetching into memory would hold the whole file; a link lets the
 * browser's own download manager stream to disk, with Range for resuming.
 */
export function createDownloadLinks(secret: string, clock: Clock) {
  const key = new TextEncoder().encode(secret);
  return {
    async create(target: DownloadTarget): Promise<{ url: string; expiresAt: string }> {
      const expiresAt = new Date(clock.now().getTime() + DOWNLOAD_LINK_LIFETIME_MS);
      const token = await new SignJWT({ kind: target.kind, id: target.id, ...(target.kind === 'version' ? { fileId: target.fileId } : {}) })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(target.userId)
        .setAudience(AUDIENCE)
        .setIssuedAt(clock.now())
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key);
      return { url: `/api/downloads/${token}`, expiresAt: expiresAt.toISOString() };
    },

    async verify(token: string): Promise<DownloadTarget | null> {
      try {
        const { payload } = await jwtVerify(token, key, { audience: AUDIENCE, algorithms: ['HS256'], currentDate: clock.now() });
        const { kind, id, sub, fileId } = payload;
        if (typeof id !== 'string' || typeof sub !== 'string') return null;
        if (kind === 'version') return typeof fileId === 'string' ? { kind, id, fileId, userId: sub } : null;
        if (kind !== 'file' && kind !== 'folder' && kind !== 'export') return null;
        return { kind, id, userId: sub };
      } catch {
        return null;
      }
    },
  };
}

export type DownloadLinks = ReturnType<typeof createDownloadLinks>;
