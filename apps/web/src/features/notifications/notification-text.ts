import type { TFunction } from 'i18next';
import type { AppNotification } from '@cloudvault/contract/profile';

/**
 * A notification in words; the server sends the facts (`details`) so it reads in the user's
 * language. Sizes come as bytes; alerts from before that carry the English text instead.
 */
export function describeNotification({ type, details }: AppNotification, t: TFunction, formatSize: (bytes: string) => string): string {
  switch (type) {
    case 'folder_shared':
      return t('notifications.types.folderShared', { owner: details.owner ?? '', folder: details.folder ?? '' });
    case 'file_shared':
      return t('notifications.types.fileShared', { owner: details.owner ?? '', file: details.file ?? '' });
    case 'storage_alert':
      return t('notifications.types.storageAlert', {
        percent: details.percent ?? '',
        used: details.usedBytes ? formatSize(details.usedBytes) : (details.used ?? ''),
        limit: details.limitBytes ? formatSize(details.limitBytes) : (details.limit ?? ''),
      });
    case 'new_sign_in':
      return t('notifications.types.newSignIn', { device: details.device ?? '' });
    case 'password_changed':
      return t('notifications.types.passwordChanged');
    case 'file_request_uploads':
      return t('notifications.types.fileRequestUploads', {
        count: Number(details.count ?? '1'),
        names: details.names ?? '',
        folder: details.folder ?? '',
      });
  }
}
