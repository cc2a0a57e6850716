import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AppPassword,
  AppPasswordsResponse,
  CreateAppPasswordBody,
  CreatedAppPasswordResponse,
} from '@cloudvault/contract/app-passwords';
import { api } from '../../../lib/api-client';
import { appPasswordKeys } from '../../../lib/query-keys';

/** GET /api/user/app-passwords: newest first, never the secrets. */
export async function listAppPasswords({ signal }: { signal?: AbortSignal } = {}): Promise<AppPassword[]> {
  return (await api.get<AppPasswordsResponse>('/user/app-passwords', { signal })).appPasswords;
}

/** POST /api/user/app-passwords: takes the account password (and a code with two-factor on); the answer carries the secret, shown this once. */
export function createAppPassword(body: CreateAppPasswordBody): Promise<CreatedAppPasswordResponse> {
  return api.post<CreatedAppPasswordResponse>('/user/app-passwords', body);
}

/** DELETE /api/user/app-passwords/:id: it stops working at once. */
export function revokeAppPassword(id: string): Promise<void> {
  return api.delete<void>(`/user/app-passwords/${encodeURIComponent(id)}`);
}

export function appPasswordsQueryOptions() {
  return queryOptions({ queryKey: appPasswordKeys.all, queryFn: listAppPasswords });
}

export function useAppPasswords() {
  return useQuery(appPasswordsQueryOptions());
}

export function useCreateAppPassword() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createAppPassword, onSuccess: () => queryClient.invalidateQueries({ queryKey: appPasswordKeys.all }) });
}

/** The revoked one leaves the list at once; the list is then read again from the server. */
export function useRevokeAppPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeAppPassword,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<AppPassword[]>(appPasswordKeys.all, (current) => current?.filter((entry) => entry.id !== id));
      void queryClient.invalidateQueries({ queryKey: appPasswordKeys.all });
    },
  });
}
