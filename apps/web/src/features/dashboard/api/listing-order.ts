import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Settings, SettingsResponse } from '@cloudvault/contract/settings';
import { api } from '../../../lib/api-client';
import { settingsKeys } from '../../../lib/query-keys';
import type { ListingOrderChoice } from '../listing-pages';

/**
 * The settings as the server stores them, listing included. Apart from the settings page's
 * answer (which keeps only the groups that page shows), under the settings key so that
 * invalidating the settings reaches it.
 */
const listingSettingsKey = [...settingsKeys.all, 'with-listing'] as const;

/** GET /api/user/settings, as the server answers it. */
async function getStoredSettings(signal?: AbortSignal): Promise<Settings> {
  const { settings } = await api.get<SettingsResponse>('/user/settings', { signal });
  return settings;
}

export function listingSettingsQueryOptions() {
  return queryOptions({ queryKey: listingSettingsKey, queryFn: ({ signal }) => getStoredSettings(signal) });
}

/** The user's settings (with their listing order); undefined while loading or when they failed to load. */
export function useListingSettings() {
  return useQuery(listingSettingsQueryOptions());
}

/**
 * Saves the listing order in the user's settings (PUT takes the whole object). The new order
 * applies at once, as a click on a column header should; a refusal puts the old one back.
 */
export function useSaveListingOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (listing: ListingOrderChoice) => {
      const stored = queryClient.getQueryData<Settings>(listingSettingsKey) ?? (await getStoredSettings());
      const { settings } = await api.put<SettingsResponse>('/user/settings', { ...stored, listing });
      return settings;
    },
    onMutate: async (listing) => {
      await queryClient.cancelQueries({ queryKey: listingSettingsKey });
      const before = queryClient.getQueryData<Settings>(listingSettingsKey);
      if (before) queryClient.setQueryData<Settings>(listingSettingsKey, { ...before, listing });
      return { before };
    },
    onError: (_error, _listing, context) => {
      if (context?.before) queryClient.setQueryData(listingSettingsKey, context.before);
    },
    onSuccess: (settings) => queryClient.setQueryData(listingSettingsKey, settings),
  });
}
