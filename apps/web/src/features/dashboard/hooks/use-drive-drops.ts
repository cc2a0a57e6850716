import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { UploadConfig } from '@cloudvault/contract/files';
import { FALLBACK_UPLOAD_CONFIG } from '../../../hooks/use-upload-config';
import { driveKeys } from '../../../lib/query-keys';
import type { UploadsSlot } from '../slots';
import { useFileDrop } from './use-file-drop';

interface DriveDropsOptions {
  /** Off while something covers the listing (a dialog, the viewer). */
  enabled: boolean;
  folderId: string | null;
  uploadDropped: UploadsSlot['uploadDropped'];
  /** undefined while loading. */
  uploadConfig: UploadConfig | undefined;
}

/**
 * Files dropped from the desktop anywhere on the page upload into the open folder, whose
 * listing reloads when the drop created folders. Returns whether files are being dragged over.
 */
export function useDriveDrops({ enabled, folderId, uploadDropped, uploadConfig }: DriveDropsOptions): boolean {
  const queryClient = useQueryClient();
  const onDropFiles = useCallback(
    (dataTransfer: DataTransfer) => {
      void uploadDropped(dataTransfer, folderId, uploadConfig ?? FALLBACK_UPLOAD_CONFIG).then((created) => {
        if (created > 0) void queryClient.invalidateQueries({ queryKey: driveKeys.folders(folderId) });
      });
    },
    [uploadDropped, uploadConfig, folderId, queryClient],
  );
  return useFileDrop(enabled, onDropFiles);
}
