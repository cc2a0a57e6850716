import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicItemsResponse } from '@cloudvault/contract/shares';
import { api } from '../../../lib/api-client';
import { shareKeys } from '../../../lib/query-keys';
import { visitorOptions } from './get-public-share';

/** GET /api/public/shares/:token/items?folderId=: a folder inside a shared folder (null: its top). */
export function getPublicItems(
  token: string,
  folderId: string | null,
  access: string | null,
  signal?: AbortSignal,
): Promise<PublicItemsResponse> {
  return api.get<PublicItemsResponse>(`/public/shares/${encodeURIComponent(token)}/items`, {
    ...visitorOptions(access, signal),
    query: { folderId },
  });
}

export function publicItemsQueryOptions(token: string, folderId: string | null, access: string | null) {
  return queryOptions({
    queryKey: shareKeys.publicItems(token, folderId, access),
    queryFn: ({ signal }) => getPublicItems(token, folderId, access, signal),
    staleTime: 0,
  });
}

/** The listing keeps the previous folder on screen while the next one loads. */
export function usePublicItems(token: string, folderId: string | null, access: string | null) {
  return useQuery({ ...publicItemsQueryOptions(token, folderId, access), placeholderData: keepPreviousData });
}
