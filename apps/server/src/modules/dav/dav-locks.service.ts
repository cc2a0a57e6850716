import { randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { type IfList, submittedTokens } from './dav-if-header.ts';
import type { DavPath } from './dav-paths.ts';
import { hrefOf, pathKey } from './dav-paths.ts';
import type { DavLockRow, DavRepository } from './dav.repository.ts';
import { MAX_LOCK_OWNER_BYTES, MAX_LOCKS_PER_ACCOUNT } from './dav-limits.ts';
import type { DavLocksRepository } from './dav-locks.repository.ts';

/** The longest a lock is granted for; a client keeps a longer one by refreshing it. */
export const MAX_LOCK_SECONDS = 24 * 60 * 60;
/** What a lock request without a Timeout header gets. */
export const DEFAULT_LOCK_SECONDS = 60 * 60;

/** What a write changes, for the locks that guard it (RFC 4918, section 7). */
export interface WriteTarget {
  path: DavPath;
  /** The resource and everything under it (DELETE, MOVE's source, an overwritten destination). */
  tree?: boolean;
  /** Members are added to or removed from its parent, which a depth-0 lock there guards too. */
  membership?: boolean;
}

/** How a request's If header is judged: its lists, and how to read a resource's ETag. */
export interface IfContext {
  lists: IfList[] | undefined;
  requestPath: DavPath;
  /** A Resource-Tag's URL as a path; undefined when it names nothing under /dav/ on this host. */
  resolveTag(url: string): DavPath | undefined;
  etagOf(path: DavPath): Promise<string | undefined>;
}

/** The `Locked` answer, naming the lock whose token was not submitted (RFC 4918 precondition lock-token-submitted). */
export class DavLockedError extends AppError {
  constructor(readonly lockRoot: string) {
    super(423, 'DAV_LOCKED', 'The resource is locked: send its lock token in an If header');
  }
}

/** Keys of the path's ancestors, the root first, the path itself left out. */
export function ancestorKeys(path: DavPath): string[] {
  return path.map((_name, index) => pathKey(path.slice(0, index)));
}

const under = (key: string, ancestor: string) => key.startsWith(ancestor === '/' ? '/' : `${ancestor}/`) && key !== ancestor;

/** Whether the lock applies to the resource at `key`: at it, or above it with depth infinity. */
export const lockCovers = (lock: DavLockRow, key: string) =>
  lock.path_key === key || (lock.depth_infinity === 1 && under(key, lock.path_key));

/** A lock as answers show it (lockdiscovery's activelock). */
export interface ActiveLock {
  token: string;
  root: string;
  depthInfinity: boolean;
  exclusive: boolean;
  owner: string;
  timeoutSeconds: number;
}

export const presentLock = (lock: DavLockRow): ActiveLock => ({
  token: lock.token,
  root: lock.href,
  depthInfinity: lock.depth_infinity === 1,
  exclusive: lock.exclusive === 1,
  owner: lock.owner,
  timeoutSeconds: lock.timeout_seconds,
});

/**
 * WebDAV write locks (RFC 4918 classes 2): kept in the database so every node honours
 * them, checked before each write, taken, refreshed and released.
 */
export function createDavLocksService(deps: {
  dav: Pick<DavRepository, 'locksAt' | 'allLocks' | 'refreshLock' | 'deleteLock' | 'deleteLocksFrom'>;
  grants: Pick<DavLocksRepository, 'insertLock'>;
  clock: Clock;
}) {
  const { dav, clock } = deps;
  const now = () => clock.now().toISOString();
  const expiry = (seconds: number) => new Date(clock.now().getTime() + seconds * 1000).toISOString();

  /** The unexpired locks that apply to the path. */
  async function locksCovering(userId: string, path: DavPath): Promise<DavLockRow[]> {
    const key = pathKey(path);
    return (await dav.locksAt(userId, [...ancestorKeys(path), key], now())).filter((lock) => lockCovers(lock, key));
  }

  /** Whether one condition of an If list holds for the resource at `path`. */
  async function conditionHolds(
    userId: string,
    path: DavPath,
    condition: IfList['conditions'][number],
    context: IfContext,
  ): Promise<boolean> {
    const holds =
      'token' in condition
        ? (await locksCovering(userId, path)).some((lock) => lock.token === condition.token)
        : (await context.etagOf(path)) === condition.etag;
    return holds !== condition.not;
  }

  /** RFC 4918, section 10.4: the header holds when any one of its lists holds entirely. */
  async function ifHolds(userId: string, context: IfContext): Promise<boolean> {
    for (const list of context.lists ?? []) {
      const path = list.resource === null ? context.requestPath : context.resolveTag(list.resource);
      if (path === undefined) continue;
      let holds = true;
      for (const condition of list.conditions) {
        if (!(await conditionHolds(userId, path, condition, context))) {
          holds = false;
          break;
        }
      }
      if (holds) return true;
    }
    return false;
  }

  return {
    locksCovering,
    /** Every unexpired lock of the user, for listings. */
    allLocks: (userId: string) => dav.allLocks(userId, now()),

    /**
     * Refuses a write the locks do not allow: 412 when the request's If header does not
     * hold, 423 when a lock on what it changes was not submitted with its token.
     */
    async checkWrite(userId: string, targets: readonly WriteTarget[], context: IfContext): Promise<void> {
      if (context.lists && !(await ifHolds(userId, context)))
        throw new AppError(412, 'DAV_PRECONDITION_FAILED', 'The If header does not hold');
      const submitted = submittedTokens(context.lists ?? []);
      for (const target of targets) {
        const key = pathKey(target.path);
        const parent = target.path.length > 0 ? pathKey(target.path.slice(0, -1)) : undefined;
        const keys = [...ancestorKeys(target.path), key];
        const locks = await dav.locksAt(userId, keys, now(), target.tree ? key : undefined);
        const guarding = locks.filter(
          (lock) => lockCovers(lock, key) || (target.tree && under(lock.path_key, key)) || (target.membership && lock.path_key === parent),
        );
        const missing = guarding.find((lock) => !submitted.has(lock.token));
        if (missing) throw new DavLockedError(missing.href);
      }
    },

    /**
     * Grants a new lock at the path: 423 when a lock there, above or below conflicts with it,
     * 400 for an owner over its bound, 507 when the account holds as many locks as it may.
     */
    async lock(
      userId: string,
      path: DavPath,
      request: { exclusive: boolean; depthInfinity: boolean; owner: string; timeoutSeconds: number; collection: boolean },
    ): Promise<ActiveLock> {
      if (Buffer.byteLength(request.owner) > MAX_LOCK_OWNER_BYTES)
        throw badRequest(`A lock's owner is at most ${MAX_LOCK_OWNER_BYTES} bytes`, 'DAV_LOCK_OWNER_TOO_LONG');
      const key = pathKey(path);
      const row: DavLockRow = {
        token: `urn:uuid:${randomUUID()}`,
        user_id: userId,
        path_key: key,
        href: hrefOf(path, request.collection),
        depth_infinity: request.depthInfinity ? 1 : 0,
        exclusive: request.exclusive ? 1 : 0,
        owner: request.owner,
        timeout_seconds: request.timeoutSeconds,
        expires_at: expiry(request.timeoutSeconds),
        created_at: now(),
      };
      const outcome = await deps.grants.insertLock(
        row,
        ancestorKeys(path),
        (existing) =>
          existing.some(
            (lock) =>
              lock.expires_at > row.created_at &&
              (lock.exclusive === 1 || request.exclusive) &&
              (lockCovers(lock, key) || (request.depthInfinity && under(lock.path_key, key))),
          ),
        MAX_LOCKS_PER_ACCOUNT,
      );
      if (outcome === 'conflict') throw new DavLockedError(hrefOf(path, request.collection));
      if (outcome === 'too-many-locks') {
        throw new AppError(
          507,
          'DAV_TOO_MANY_LOCKS',
          `An account holds at most ${MAX_LOCKS_PER_ACCOUNT} locks at once: unlock some, or let them expire`,
        );
      }
      return presentLock(row);
    },

    /** A LOCK without a body: extends the submitted lock that applies to the path, or 412. */
    async refresh(userId: string, path: DavPath, lists: IfList[] | undefined, timeoutSeconds: number): Promise<ActiveLock> {
      const submitted = submittedTokens(lists ?? []);
      const lock = (await locksCovering(userId, path)).find((candidate) => submitted.has(candidate.token));
      if (!lock) throw new AppError(412, 'DAV_NO_SUCH_LOCK', 'No lock of the If header applies to this resource');
      await dav.refreshLock(userId, lock.token, timeoutSeconds, expiry(timeoutSeconds));
      return presentLock({ ...lock, timeout_seconds: timeoutSeconds });
    },

    /** Releases the lock, which must apply to the request's path (409 otherwise, RFC 4918 section 9.11). */
    async unlock(userId: string, path: DavPath, token: string): Promise<void> {
      const lock = (await locksCovering(userId, path)).find((candidate) => candidate.token === token);
      if (!lock || !(await dav.deleteLock(userId, token))) {
        throw new AppError(409, 'DAV_LOCK_TOKEN_MISMATCH', 'That lock token does not apply to this resource');
      }
    },

    /** The resource at the path is gone or moved away: its locks and those under it go too. */
    released: (userId: string, path: DavPath) => dav.deleteLocksFrom(userId, pathKey(path)),
  };
}

export type DavLocksService = ReturnType<typeof createDavLocksService>;
