import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationsResponse } from '@cloudvault/contract/profile';
import { api } from '../../../lib/api-client';
import { notificationKeys } from '../../../lib/query-keys';

/** POST /api/notifications/read: every notification of the user is read. */
export function markNotificationsRead(): Promise<void> {
  return api.post<void>('/notifications/read');
}

export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    onSuccess: () =>
      queryClient.setQueryData<NotificationsResponse>(notificationKeys.all, (current) =>
        current ? { unread: 0, notifications: current.notifications.map((item) => ({ ...item, read: true })) } : current,
      ),
  });
}
