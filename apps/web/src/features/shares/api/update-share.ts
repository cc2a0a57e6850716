import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Share, UpdateShareBody, UpdateShareResponse } from '@cloudvault/contract/shares';
import { api } from '../../../lib/api-client';
import { shareKeys } from '../../../lib/query-keys';

/** PATCH /api/shares/:id: a share's role or a link's settings changed in place; a link keeps its address. */
export async function updateShare(id: string, body: UpdateShareBody): Promise<Share> {
  const { share } = await api.patch<UpdateShareResponse>(`/shares/${encodeURIComponent(id)}`, body);
  return share;
}

/** A person's role and reshare switch as asked, shown before the server answers (a menu or switch follows the hand). */
function asked(share: Share, body: UpdateShareBody): Share {
  return {
    ...share,
    ...(body.role === undefined ? {} : { role: body.role }),
    ...(body.mayReshare === undefined ? {} : { mayReshare: body.mayReshare }),
  };
}

/**
 * Changes a share: the owner's list shows the new role or switch at once, then the server's
 * answer; a refusal puts the list back as it was.
 */
export function useUpdateShare() {
  const queryClient = useQueryClient();
  const replace = (next: (share: Share) => Share, id: string) =>
    queryClient.setQueryData<Share[]>(shareKeys.mine, (list) => list?.map((entry) => (entry.id === id ? next(entry) : entry)));
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateShareBody }) => updateShare(id, body),
    onMutate: async ({ id, body }) => {
      await queryClient.cancelQueries({ queryKey: shareKeys.mine });
      const before = queryClient.getQueryData<Share[]>(shareKeys.mine);
      replace((share) => asked(share, body), id);
      return { before };
    },
    onSuccess: (share) => replace(() => share, share.id),
    onError: (_error, _variables, context) => queryClient.setQueryData(shareKeys.mine, context?.before),
    onSettled: () => queryClient.invalidateQueries({ queryKey: shareKeys.mine }),
  });
}
