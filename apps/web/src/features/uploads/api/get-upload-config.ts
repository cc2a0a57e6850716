import { useQuery } from '@tanstack/react-query';
import type { UploadConfig } from '@cloudvault/contract/files';
import { api, getToken } from '../../../lib/api-client';
import { FALLBACK_UPLOAD_CONFIG } from '../upload-limits';

/** The upload settings' query key: a plan change invalidates it (the per-file limit moves). */
export const uploadConfigQueryKey = ['uploads', 'config'] as const;

/** GET /api/files/upload-config: the plan's per-file limit. */
export function getUploadConfig(): Promise<UploadConfig> {
  return api.get<UploadConfig>('/files/upload-config');
}

/**
 * The upload settings; a failure falls back to the Free defaults (docs/product.md#uploads)
 * and is only logged. Without a stored token nothing is fetched and `data` stays undefined,
 * which leaves the upload zone unusable.
 */
export function useUploadConfig() {
  return useQuery({
    queryKey: uploadConfigQueryKey,
    queryFn: async (): Promise<UploadConfig> => {
      try {
        return await getUploadConfig();
      } catch (error) {
        console.warn('Upload settings unavailable; using the Free defaults.', error);
        return FALLBACK_UPLOAD_CONFIG;
      }
    },
    enabled: getToken() !== null,
    staleTime: 60_000,
  });
}
