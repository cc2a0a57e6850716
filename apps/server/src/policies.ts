/**
 * Product policy the services are given: limits, windows, intervals and sizes that are
 * decided, not configured. Each names where it was decided (docs/product.md, docs/api.md or
 * a decision record); container.ts hands them to the services. What an operator sets is in
 * config.ts.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MIB = 1024 * 1024;

/** At most `max` counted events per key in a window of `windowMs` (lib/failure-limiter.ts). */
export interface LimitPolicy {
  max: number;
  windowMs: number;
}

/**
 * Failed sign-ins, from the form, re-authentication and WebDAV's Basic auth alike: per e-mail
 * and client address, so guesses from one place never lock the owner out from another, and
 * per address (docs/product.md, Constants; docs/decisions/0014-security-review.md).
 */
export const SIGN_IN_FAILURES = {
  perEmailAndAddress: { max: 10, windowMs: 15 * MINUTE },
  perAddress: { max: 100, windowMs: 15 * MINUTE },
} satisfies Record<string, LimitPolicy>;

/** Wrong share passwords: per link and address, and per link from all addresses (docs/product.md, Constants). */
export const SHARE_PASSWORD_FAILURES = {
  perLinkAndAddress: { max: 10, windowMs: 15 * MINUTE },
  perLink: { max: 100, windowMs: 15 * MINUTE },
} satisfies Record<string, LimitPolicy>;

/**
 * Files sent through an upload or edit link, counted as each upload starts (a refused one
 * too): per link and visitor address, and per link from all addresses together, so one
 * visitor cannot fill the owner's drive with small files and a link posted in public
 * cannot be used as free storage (issue 38, "Abuse and hostile input").
 */
export const LINK_UPLOADS = {
  perLinkAndAddress: { max: 200, windowMs: HOUR },
  perLink: { max: 1000, windowMs: HOUR },
} satisfies Record<string, LimitPolicy>;

/** Files received through one link within this time after the first are told to the owner in that one notification. */
export const FILE_REQUEST_NOTICE_WINDOW_MS = 10 * MINUTE;

/** New private shares an owner may make, each an e-mail we send for them (docs/decisions/0014-security-review.md, Invitations). */
export const PRIVATE_SHARE_INVITATIONS: LimitPolicy = { max: 20, windowMs: HOUR };

/** Verification e-mails one account may have resent (docs/product.md, second wave; docs/decisions/0013-email-verification-and-recovery.md). */
export const VERIFICATION_RESENDS: LimitPolicy = { max: 5, windowMs: HOUR };

/** Forgot-password requests per e-mail and per client address (docs/decisions/0013-email-verification-and-recovery.md). */
export const PASSWORD_RESET_REQUESTS = {
  perEmail: { max: 5, windowMs: HOUR },
  perAddress: { max: 20, windowMs: HOUR },
} satisfies Record<string, LimitPolicy>;

/**
 * The least time a forgot-password answer takes, whether or not the address has an account:
 * both paths fit well inside it, so timing tells nothing (docs/decisions/0013-email-verification-and-recovery.md).
 */
export const FORGOT_PASSWORD_FLOOR_MS = 250;

/**
 * A WebDAV sign-in with the account password is recorded once per account and client in this
 * window: a syncing client sends the password with every request (docs/decisions/0037-app-password-policy.md).
 */
export const WEBDAV_SIGN_IN_RECORDS: LimitPolicy = { max: 1, windowMs: DAY };

/**
 * How long, and for how many accounts, a node remembers a verified account password, so a
 * WebDAV client's every request does not cost an argon2 check (docs/decisions/0028-app-passwords.md).
 */
export const VERIFIED_PASSWORD_MEMORY = { maxEntries: 1000, ttlMs: 5 * MINUTE };

/**
 * Folder listings kept per process while the database is unchanged: two or three of the
 * largest folders' answers (10,000 files are 2.9 MB; docs/decisions/0034-request-cost.md).
 */
export const LISTING_CACHE_BYTES = 8 * MIB;

/** What making one thumbnail may cost, against hostile files (docs/decisions/0023-thumbnails.md, Hostile input). */
export const THUMBNAIL_MAKING = {
  /** sharp refuses an image of more pixels, read from its header before decoding. */
  maxInputPixels: 100_000_000,
  /** An 8K frame (8192 x 4320) decodes; a larger one, or a larger image in a PDF, does not. */
  maxFramePixels: 8192 * 4320,
  timeoutMs: 30 * SECOND,
  toolCpuSeconds: 30,
  /** About 330 MB of ffmpeg's is its libraries: the rest holds an 8K frame's few references. */
  ffmpegAddressSpaceBytes: 1024 * MIB,
  /** Beyond what the PDF renderer maps to draw a blank page, measured once per process. */
  pdfRendererMemoryBytes: 512 * MIB,
};

/** The most thumbnails a copy queues at once; the periodic backfill makes those of a larger folder's other files. */
export const THUMBNAILS_QUEUED_PER_COPY = 1000;

/** Larger sources get no thumbnail: copying them out of the store would cost more than it gives (docs/decisions/0023-thumbnails.md). */
export const THUMBNAIL_MAX_SOURCE_BYTES = 4 * 1024 * MIB;

/**
 * The lock that lets one node at a time take a tus upload's next PATCH: a lease renewed while
 * held, so a dead node's lapses; waiters poll, then answer 500 as tus does (docs/decisions/0025-resumable-uploads.md).
 */
export const RESUMABLE_UPLOAD_LOCK = { leaseMs: 30 * SECOND, waitMs: 45 * SECOND, pollMs: 100 };

/**
 * The change feed (docs/decisions/0060-change-journal.md): how long the journal keeps an
 * entry (an older cursor answers 410 and the client lists again), and how many waiting
 * requests and streams one node holds, per account (tabs, phones, a sync client) and in all.
 */
export const CHANGE_FEED = {
  retentionMs: 30 * DAY,
  listenersPerAccount: 25,
  listenersPerNode: 20_000,
  /** A stream sends a comment this often, so proxies and the browser keep an idle connection open. */
  keepAliveMs: 25 * SECOND,
};
