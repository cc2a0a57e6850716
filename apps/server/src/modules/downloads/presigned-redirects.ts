import type { FastifyRequest } from 'fastify';
import type { PresignedUrls } from '../../adapters/blob-store/s3-presigned-urls.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RangeRequest } from '../../lib/download-headers.ts';

/**
 * As long as a download link lives (docs/decisions/0006): long enough to start and to
 * resume soon after, short enough that a leaked URL is soon useless.
 */
export const PRESIGNED_URL_LIFETIME_SECONDS = 5 * 60;

/** The headers our own response would carry, which the store is told to answer with. */
export interface StoreAnswerHeaders {
  contentType: string;
  contentDisposition: string;
  cacheControl: string;
}

/**
 * Downloads that go to an S3 store directly (docs/decisions/0022): given presigned URLs
 * (S3_PRESIGNED_DOWNLOADS), a single-file GET that passed every check answers 302 to the
 * bucket, so the bytes no longer pass through the server (what a page loads into itself
 * excepted, see isLoadedInPage).
 */
export function createPresignedRedirects(urls: PresignedUrls | undefined, clock: Clock) {
  return {
    /**
     * Where the client should fetch the bytes, or undefined when the server answers itself:
     * without presigned URLs, for a HEAD (a URL signed for GET takes none), and for a Range
     * we answer with the whole file (an If-Range naming other bytes, several ranges), since
     * the client repeats its Range to the store, which would answer only the part.
     */
    async locationFor(request: FastifyRequest, key: string, range: RangeRequest, headers: StoreAnswerHeaders): Promise<string | undefined> {
      if (!urls || request.method !== 'GET' || isLoadedInPage(request)) return undefined;
      if (request.headers.range !== undefined && range.kind !== 'range') return undefined;
      return urls.getUrl({ key, signedAt: clock.now(), expiresInSeconds: PRESIGNED_URL_LIFETIME_SECONDS, ...headers });
    },
  };
}

/**
 * What the viewer loads into our page (an <img>, <video> or <audio>, pdf.js's and the text
 * preview's fetch) comes from a browser that names its destination (Sec-Fetch-Dest) and is
 * not a navigation (Sec-Fetch-Mode "no-cors", "cors", "same-origin"). Those stay on our
 * origin: our CSP allows only 'self', and a bucket would need CORS for fetch. Downloads
 * (mode "navigate", whatever their destination) and clients that name no destination
 * (curl, rclone, Node's fetch) still go to the store.
 */
function isLoadedInPage(request: FastifyRequest): boolean {
  const destination = request.headers['sec-fetch-dest'];
  const mode = request.headers['sec-fetch-mode'];
  return destination !== undefined && mode !== undefined && mode !== 'navigate';
}

export type PresignedRedirects = ReturnType<typeof createPresignedRedirects>;
