import type { TFunction } from 'i18next';
import type { ActivityEntry } from '@cloudvault/contract/profile';

/**
 * One line of the account's activity in words. The server keeps facts (`details`), not
 * sentences, so that each entry reads in the user's language.
 */
export function describeActivity(entry: ActivityEntry, t: TFunction): string {
  const { details } = entry;
  switch (entry.type) {
    case 'sign_in':
      return t('profile.activity.entries.signIn', { device: details.device ?? '' });
    case 'upload': {
      // A sync client's batch writes one entry for its files: named by the first, with the total size.
      const others = Number(details.files ?? 1) - 1;
      return others > 0
        ? t('profile.activity.entries.uploadMany', { name: details.name ?? '', others, size: details.size ?? '' })
        : t('profile.activity.entries.upload', { name: details.name ?? '', size: details.size ?? '' });
    }
    case 'copy':
      return details.item === 'folder'
        ? t('profile.activity.entries.copyFolder', { name: details.name ?? '', size: details.size ?? '' })
        : t('profile.activity.entries.copyFile', { name: details.name ?? '', size: details.size ?? '' });
    case 'rename':
      return details.item === 'folder'
        ? t('profile.activity.entries.renameFolder', { from: details.from ?? '', name: details.name ?? '' })
        : t('profile.activity.entries.renameFile', { from: details.from ?? '', name: details.name ?? '' });
    case 'move':
      return details.item === 'folder'
        ? t('profile.activity.entries.moveFolder', { name: details.name ?? '' })
        : t('profile.activity.entries.moveFile', { name: details.name ?? '' });
    case 'delete':
      return details.item === 'folder'
        ? t('profile.activity.entries.deleteFolder', { name: details.name ?? '' })
        : t('profile.activity.entries.deleteFile', { name: details.name ?? '' });
    case 'share':
      if (details.kind === 'private') {
        const key = details.item === 'file' ? 'sharePrivateFile' : 'sharePrivate';
        return t(`profile.activity.entries.${key}`, { name: details.name ?? '', email: details.email ?? '' });
      }
      // Links made before their entries kept the item's name read as they always did.
      if (details.name === undefined) {
        return details.item === 'folder' ? t('profile.activity.entries.shareFolderLink') : t('profile.activity.entries.shareFileLink');
      }
      return details.item === 'folder'
        ? t('profile.activity.entries.shareFolderLinkNamed', { name: details.name })
        : t('profile.activity.entries.shareFileLinkNamed', { name: details.name });
    case 'plan_change': {
      const plan = details.planName ?? '';
      if (details.type === 'upgrade') return t('profile.activity.entries.planUpgrade', { plan });
      if (details.type === 'downgrade') return t('profile.activity.entries.planDowngrade', { plan });
      if (details.type === 'cancel') return t('profile.activity.entries.planCancel');
      return t('profile.activity.entries.planOther', { plan });
    }
    case 'password_change':
      return t('profile.activity.entries.passwordChange');
    case 'two_factor':
      return details.state === 'off' ? t('profile.activity.entries.twoFactorOff') : t('profile.activity.entries.twoFactorOn');
  }
}
