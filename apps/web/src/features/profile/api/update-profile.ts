import { useMutation } from '@tanstack/react-query';
import type { ProfileResponse } from '@cloudvault/contract/accounts';
import type { UpdateProfileBody } from '@cloudvault/contract/profile';
import { useSession } from '../../../hooks/use-session';
import { api } from '../../../lib/api-client';

/** PUT /api/user/profile: first and last name (the e-mail cannot change). */
export function updateProfile(body: UpdateProfileBody): Promise<ProfileResponse> {
  return api.put<ProfileResponse>('/user/profile', body);
}

/** Saves the names; the session takes the server's user so the header follows at once. */
export function useUpdateProfile() {
  const { updateUser } = useSession();
  return useMutation({ mutationFn: updateProfile, onSuccess: ({ user }) => updateUser(user) });
}
