import { Type, type Static } from 'typebox';
import { Id, NullableId, NullableString, Timestamp } from './common.ts';

/** The most changes one page of GET /api/changes answers with, and how many without `limit`. */
export const CHANGES_PAGE_MAX = 1000;
/** The longest GET /api/changes may wait for a change, in seconds. */
export const CHANGES_WAIT_MAX_SECONDS = 60;

/** An opaque position in the caller's change feed. */
export const Cursor = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' });

export const ChangesLatestResponse = Type.Object({ cursor: Type.String() });
export type ChangesLatestResponse = Static<typeof ChangesLatestResponse>;

/** GET /api/changes: `cursor` from /latest or an earlier page; `limit` 1–1000; `wait` 0–60 seconds. */
export const ChangesQuery = Type.Object({
  cursor: Type.String({ maxLength: 200 }),
  limit: Type.Optional(Type.String({ maxLength: 5, pattern: '^[0-9]+$' })),
  wait: Type.Optional(Type.String({ maxLength: 3, pattern: '^[0-9]+$' })),
});
export type ChangesQuery = Static<typeof ChangesQuery>;

/** GET /api/changes/stream: the feed after `cursor` as server-sent events (docs/api.md#change-feed). */
export const ChangesStreamQuery = Type.Object({ cursor: Type.String({ maxLength: 200 }) });
export type ChangesStreamQuery = Static<typeof ChangesStreamQuery>;

/**
 * One change, the item's state after it (shared/spec/api.md, "Change feed"): for
 * `deleted`, `id` and `kind` are what count. `shareId` when the item lives in a folder
 * shared with the caller; `size`, `contentHash` for files.
 */
export const Change = Type.Object({
  op: Type.Union([
    Type.Literal('created'),
    Type.Literal('updated'),
    Type.Literal('moved'),
    Type.Literal('deleted'),
    Type.Literal('restored'),
  ]),
  kind: Type.Union([Type.Literal('file'), Type.Literal('folder')]),
  id: Id,
  parentId: NullableId,
  name: Type.String(),
  at: Timestamp,
  shareId: Type.Optional(Type.String()),
  size: Type.Optional(Type.Number()),
  contentHash: Type.Optional(Type.String()),
  modifiedAt: Type.Optional(NullableString(Type.String())),
});
export type Change = Static<typeof Change>;

export const ChangesResponse = Type.Object({
  changes: Type.Array(Change),
  cursor: Type.String(),
  hasMore: Type.Boolean(),
});
export type ChangesResponse = Static<typeof ChangesResponse>;
