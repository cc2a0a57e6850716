import { useQuery } from '@tanstack/react-query';
import type { LinkResponse } from '@cloudvault/contract/single-sign-on';
import { api } from '../../../lib/api-client';
import { singleSignOnKeys } from '../../../lib/query-keys';

/** GET /api/auth/oidc/link: the account's identity at the provider, or null. */
export function getLink(): Promise<LinkResponse> {
  return api.get<LinkResponse>('/auth/oidc/link');
}

export function useLink() {
  return useQuery({ queryKey: singleSignOnKeys.link, queryFn: getLink });
}
