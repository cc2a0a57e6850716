import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationsResponse } from '@cloudvault/contract/profile';
import { api } from '../../../lib/api-client';
import { notificationKeys } from '../../../lib/query-keys';

/** The bell looks again this often, so a share or an alert shows up without a reload. */
const POLL_INTERVAL_MS = 60_000;

/** GET /api/notifications: the latest in-app notifications and how many are unread. */
export function getNotifications({ signal }: { signal?: AbortSignal } = {}): Promise<NotificationsResponse> {
  return api.get<NotificationsResponse>('/notifications', { signal });
}

export function notificationsQueryOptions() {
  return queryOptions({ queryKey: notificationKeys.all, queryFn: getNotifications, refetchInterval: POLL_INTERVAL_MS });
}

/** `enabled: false` holds the first request back (the signed-in shell's first frame, src/app/layouts/signed-in-layout.tsx). */
export function useNotifications({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...notificationsQueryOptions(), enabled });
}
