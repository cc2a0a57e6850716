import { useMutation } from '@tanstack/react-query';
import type { ShareAccessResponse } from '@cloudvault/contract/shares';
import { api } from '../../../lib/api-client';

/** POST /api/public/shares/:token/access: the right password gives a one-hour access grant. */
export function unlockShare({ token, password }: { token: string; password: string }): Promise<ShareAccessResponse> {
  // A wrong password is a 401 about the link, never about the visitor's own session.
  return api.post<ShareAccessResponse>(`/public/shares/${encodeURIComponent(token)}/access`, { password }, { ignoreUnauthorized: true });
}

export function useUnlockShare() {
  return useMutation({ mutationFn: unlockShare });
}
