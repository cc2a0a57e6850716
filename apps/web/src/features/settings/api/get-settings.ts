import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Settings, SettingsResponse } from '@cloudvault/contract/settings';
import { api } from '../../../lib/api-client';
import { settingsKeys } from '../../../lib/query-keys';
import { mergeSettings } from '../merge-settings';

/** GET /api/user/settings, merged over the defaults. */
export async function getSettings({ signal }: { signal?: AbortSignal } = {}): Promise<Settings> {
  const { settings } = await api.get<SettingsResponse>('/user/settings', { signal });
  return mergeSettings(settings);
}

export function settingsQueryOptions() {
  return queryOptions({ queryKey: settingsKeys.all, queryFn: getSettings });
}

/** `enabled: false` holds the first request back (the signed-in shell's first frame, src/app/layouts/signed-in-layout.tsx). */
export function useSettings({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...settingsQueryOptions(), enabled });
}
