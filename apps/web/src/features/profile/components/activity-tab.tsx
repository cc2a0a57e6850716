import {
  Copy,
  CreditCard,
  File,
  Folder,
  FolderInput,
  KeyRound,
  LogIn,
  PencilLine,
  Share2,
  ShieldCheck,
  Trash2,
  Upload,
  type LucideIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { ActivityType } from '@cloudvault/contract/profile';
import { useOverview } from '../api/get-overview';
import { describeActivity } from '../activity-text';
import { formatDateTime } from '../format-date-time';
import { OverviewState } from './overview-state';
import { ProfileCard } from './profile-card';

const icons: Record<ActivityType, LucideIcon> = {
  sign_in: LogIn,
  upload: Upload,
  rename: PencilLine,
  move: FolderInput,
  delete: Trash2,
  copy: Copy,
  share: Share2,
  plan_change: CreditCard,
  password_change: KeyRound,
  two_factor: ShieldCheck,
};

/** The Activity tab: what the account holds and what happened lately, from the server's activity log. */
export function ActivityTab() {
  const { t, i18n } = useTranslation();
  const overview = useOverview();
  const number = (value: number) => value.toLocaleString(i18n.language);

  return (
    <OverviewState query={overview}>
      {(data) => (
        <div className="flex flex-col gap-6">
          <dl className="grid grid-cols-3 gap-3 sm:gap-4">
            {[
              { label: t('profile.activity.files'), value: data.counts.files, icon: File },
              { label: t('profile.activity.folders'), value: data.counts.folders, icon: Folder },
              { label: t('profile.activity.shares'), value: data.counts.shares, icon: Share2 },
            ].map(({ label, value, icon: Icon }) => (
              <div key={label} className="rounded-card border border-line bg-surface p-4 shadow-card">
                <dt className="flex items-center gap-1.5 text-xs font-medium text-ink-muted sm:text-sm">
                  <Icon aria-hidden="true" className="size-4 shrink-0" />
                  <span className="truncate">{label}</span>
                </dt>
                <dd className="mt-1 text-2xl font-bold text-ink tabular-nums">{number(value)}</dd>
              </div>
            ))}
          </dl>
          <ProfileCard title={t('profile.activity.recentTitle')}>
            {data.activity.length === 0 ? (
              <p className="text-sm text-ink-muted">{t('profile.activity.empty')}</p>
            ) : (
              <ol className="flex flex-col divide-y divide-line">
                {data.activity.map((entry, index) => {
                  const Icon = icons[entry.type];
                  return (
                    <li key={`${entry.createdAt}-${index}`} className="flex items-start gap-3 py-3 first:pt-0 last:pb-0">
                      <span className="grid size-8 shrink-0 place-items-center rounded-full bg-brand-50 text-brand-700 dark:bg-brand-950 dark:text-brand-300">
                        <Icon aria-hidden="true" className="size-4" />
                      </span>
                      <div className="min-w-0 flex-1">
                        <p className="text-sm break-words text-ink">{describeActivity(entry, t)}</p>
                        <time dateTime={entry.createdAt} className="text-xs text-ink-subtle">
                          {formatDateTime(entry.createdAt, i18n.language)}
                        </time>
                      </div>
                    </li>
                  );
                })}
              </ol>
            )}
          </ProfileCard>
        </div>
      )}
    </OverviewState>
  );
}
