import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Share, SharesResponse } from '@cloudvault/contract/shares';
import { api } from '../../../lib/api-client';
import { shareKeys } from '../../../lib/query-keys';

/** GET /api/shares: the caller's links and private shares, newest first. */
export async function getShares(signal?: AbortSignal): Promise<Share[]> {
  const { shares } = await api.get<SharesResponse>('/shares', { signal });
  return shares;
}

export function sharesQueryOptions() {
  // Expiry and download counts move on their own: re-read whenever the page opens.
  return queryOptions({ queryKey: shareKeys.mine, queryFn: ({ signal }) => getShares(signal), staleTime: 0 });
}

export function useShares() {
  return useQuery(sharesQueryOptions());
}
