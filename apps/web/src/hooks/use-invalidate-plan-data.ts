import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { billingKeys, driveKeys, uploadKeys } from '../lib/query-keys';
import { useSession } from './use-session';

/**
 * After any plan change: everything that shows the plan or its limits is read again (the
 * subscription, the dashboard's storage card, the upload settings, the user in the header),
 * so the new limit shows without a reload.
 */
export function useInvalidatePlanData(): () => Promise<void> {
  const queryClient = useQueryClient();
  const { refreshUser } = useSession();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: billingKeys.current }),
      queryClient.invalidateQueries({ queryKey: driveKeys.storage }),
      queryClient.invalidateQueries({ queryKey: uploadKeys.config }),
      refreshUser(),
    ]);
  }, [queryClient, refreshUser]);
}
