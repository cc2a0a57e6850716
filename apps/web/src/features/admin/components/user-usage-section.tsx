import { useTranslation } from 'react-i18next';
import type { AdminUserDetailResponse } from '@cloudvault/contract/admin';
import { useFormatSize } from '../../../lib/format-size';
import { formatCount, formatDateTime } from '../figures';
import { Detail, DetailList } from './detail-list';
import { Panel } from './page-states';

/** What the account holds (counts and sizes, never names), and where it is signed in. */
export function UserUsageSection({ detail }: { detail: AdminUserDetailResponse }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const formatSize = useFormatSize();
  const { user, usage, devices } = detail;
  const count = (value: number) => formatCount(value, language);

  return (
    <>
      <Panel id="admin-user-usage-title" title={t('admin.detail.usage.title')}>
        <DetailList>
          <Detail term={t('admin.detail.usage.storage')}>
            {t('admin.detail.usage.storageValue', { used: formatSize(user.storageUsed), limit: formatSize(user.storageLimit) })}
          </Detail>
          <Detail term={t('admin.detail.usage.files')}>{count(usage.filesCount)}</Detail>
          <Detail term={t('admin.detail.usage.folders')}>{count(usage.foldersCount)}</Detail>
          <Detail term={t('admin.detail.usage.trashed')}>{count(usage.trashedCount)}</Detail>
          <Detail term={t('admin.detail.usage.versions')}>{count(usage.versionsCount)}</Detail>
          <Detail term={t('admin.detail.usage.shares')}>{count(usage.sharesCount)}</Detail>
        </DetailList>
        {usage.largestFileSizes.length > 0 && (
          <>
            <h3 className="mt-5 text-xs font-medium text-ink-muted">{t('admin.detail.usage.largestFiles')}</h3>
            <p className="mt-1 text-sm text-ink">{usage.largestFileSizes.map((size) => formatSize(size)).join(' · ')}</p>
          </>
        )}
      </Panel>

      <Panel id="admin-user-devices-title" title={t('admin.detail.devices.title')}>
        <DetailList>
          <Detail term={t('admin.detail.devices.lastSignIn')}>
            {user.lastSignInAt ? formatDateTime(user.lastSignInAt, language) : t('admin.users.never')}
          </Detail>
          <Detail term={t('admin.detail.devices.created')}>{formatDateTime(user.createdAt, language)}</Detail>
        </DetailList>
        {devices.length === 0 ? (
          <p className="mt-4 text-sm text-ink-muted">{t('admin.detail.devices.none')}</p>
        ) : (
          <ul aria-label={t('admin.detail.devices.listLabel')} className="mt-4 divide-y divide-line rounded-control border border-line">
            {devices.map((device) => (
              <li key={device.id} className="px-3.5 py-2.5 text-sm">
                <p className="font-medium text-ink">{device.name}</p>
                <p className="text-xs text-ink-muted">
                  {t('admin.detail.devices.session', {
                    since: formatDateTime(device.createdAt, language),
                    until: formatDateTime(device.expiresAt, language),
                  })}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </>
  );
}
