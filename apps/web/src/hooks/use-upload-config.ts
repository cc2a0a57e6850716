import { useQuery } from '@tanstack/react-query';
import type { UploadConfig } from '@cloudvault/contract/files';
import { api, getToken } from '../lib/api-client';
import { uploadKeys } from '../lib/query-keys';

/** docs/product.md#uploads: used when the upload settings cannot be loaded. */
export const FALLBACK_UPLOAD_CONFIG: UploadConfig = {
  userMaxFileSize: 107374182,
  userMaxFileSizeFormatted: '102.4 MB',
  userPlan: 'FREE',
};

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
    queryKey: uploadKeys.config,
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
