import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { driveKeys } from '../../../lib/query-keys';

/** An item to star or unstar: the file manager's kind and id, nothing else. */
export interface StarRef {
  kind: 'file' | 'folder';
  id: string;
}

/** PUT /api/starred/:type/:id: idempotent, a second star changes nothing. */
export function starItem(item: StarRef): Promise<void> {
  return api.put(`/starred/${item.kind}/${encodeURIComponent(item.id)}`);
}

/** DELETE /api/starred/:type/:id: idempotent, unstarring an unstarred item is not an error. */
export function unstarItem(item: StarRef): Promise<void> {
  return api.delete(`/starred/${item.kind}/${encodeURIComponent(item.id)}`);
}

type Marked = { id: string; starred?: boolean };
const isMarked = (value: unknown): value is Marked =>
  typeof value === 'object' && value !== null && typeof (value as Marked).id === 'string';

/**
 * A cached answer with the given items' star set: arrays of files or folders (the listings,
 * search) and objects holding such arrays (Starred, Recent, pages of a paged listing) are
 * copied with the change; anything else (the storage summary), and an answer without any of
 * the items, is returned as it is, so React Query keeps its identity.
 */
export function withStars(data: unknown, ids: ReadonlySet<string>, starred: boolean): unknown {
  if (typeof data !== 'object' || data === null) return data;
  if (isMarked(data)) return ids.has(data.id) && data.starred !== starred ? { ...data, starred } : data;
  let changed = false;
  const mark = (value: unknown) => {
    // Only arrays and what they hold: a listing's items, or the pages that hold them.
    const next = Array.isArray(value) || Array.isArray(data) ? withStars(value, ids, starred) : value;
    if (next !== value) changed = true;
    return next;
  };
  const next = Array.isArray(data) ? data.map(mark) : Object.fromEntries(Object.entries(data).map(([key, value]) => [key, mark(value)]));
  return changed ? next : data;
}

/** Marks the items in every cached drive answer at once; answers the snapshot to put back on failure. */
function markEverywhere(queryClient: QueryClient, items: readonly StarRef[], starred: boolean) {
  const ids = new Set(items.map((item) => item.id));
  const before = queryClient.getQueriesData({ queryKey: driveKeys.all });
  queryClient.setQueriesData({ queryKey: driveKeys.all }, (data: unknown) => withStars(data, ids, starred));
  return before;
}

/**
 * Stars or unstars a list of files and folders (the selection bar, the context menu, a
 * view's own button): every cached listing shows the change at once, is put back if the
 * server refuses, and is fetched again afterwards, Starred and Recent included (they live
 * under the drive's keys). `mutate({ items, starred: true })`.
 */
export function useStarToggle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ items, starred }: { items: readonly StarRef[]; starred: boolean }) => {
      // One request per item: a selection is tens of items, and each answer is a 204.
      await Promise.all(items.map((item) => (starred ? starItem(item) : unstarItem(item))));
    },
    onMutate: async ({ items, starred }) => {
      await queryClient.cancelQueries({ queryKey: driveKeys.all });
      return { before: markEverywhere(queryClient, items, starred) };
    },
    onError: (_error, _input, context) => {
      for (const [key, data] of context?.before ?? []) queryClient.setQueryData(key, data);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: driveKeys.all }),
  });
}
