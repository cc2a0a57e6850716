import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Share, UpdateShareBody, UpdateShareResponse } from '@cloudvault/contract/shares';
import { api } from '../../../lib/api-client';
import { shareKeys } from '../../../lib/query-keys';

/** PATCH /api/shares/:id: a share's role or a link's settings changed in place; a link keeps its address. */
export async function updateShare(id: string, body: UpdateShareBody): Promise<Share> {
  const { share } = await api.patch<UpdateShareResponse>(`/shares/${encodeURIComponent(id)}`, body);
  return share;
}

/** Changes a share and puts the server's answer in the owner's list at once. */
export function useUpdateShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateShareBody }) => updateShare(id, body),
    onSuccess: (share) =>
      queryClient.setQueryData<Share[]>(shareKeys.mine, (list) => list?.map((entry) => (entry.id === share.id ? share : entry))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: shareKeys.mine }),
  });
}
