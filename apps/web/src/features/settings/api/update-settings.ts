import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Settings, SettingsResponse } from '@cloudvault/contract/settings';
import { api } from '../../../lib/api-client';
import { settingsKeys } from '../../../lib/query-keys';
import { mergeSettings } from '../merge-settings';

/** PUT /api/user/settings with the whole settings object; the answer is what the server kept. */
export async function updateSettings(settings: Settings): Promise<Settings> {
  const response = await api.put<SettingsResponse>('/user/settings', settings);
  return mergeSettings(response.settings);
}

/** Local state follows only the server's answer, never the optimistic value (docs/product.md#settings). */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (settings) => queryClient.setQueryData(settingsKeys.all, settings),
  });
}
