import { CalendarDays, Mail } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { User } from '@cloudvault/contract/accounts';
import { Badge } from '../../../components/ui/badge';
import { formatDay } from '../../../lib/dates';

/** The card above the tabs: who is signed in, their plan and since when. */
export function ProfileSummary({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const initials = `${user.firstName.trim().charAt(0)}${user.lastName.trim().charAt(0)}`.toUpperCase();
  return (
    <div className="flex flex-col items-center gap-4 rounded-card border border-line bg-surface p-5 text-center shadow-card sm:flex-row sm:p-6 sm:text-left">
      <span
        aria-hidden="true"
        className="grid size-16 shrink-0 place-items-center rounded-full bg-gradient-to-br from-brand-500 to-brand-700 text-xl font-semibold text-white"
      >
        {initials}
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center justify-center gap-2 sm:justify-start">
          <p className="truncate text-xl font-semibold text-ink">
            {user.firstName} {user.lastName}
          </p>
          <Badge tone={user.plan === 'FREE' ? 'neutral' : 'brand'}>{t(`common.plans.${user.plan}`)}</Badge>
        </div>
        <div className="mt-1.5 flex flex-col gap-1 text-sm text-ink-muted sm:flex-row sm:gap-4">
          <span className="inline-flex min-w-0 items-center justify-center gap-1.5 sm:justify-start">
            <Mail aria-hidden="true" className="size-4 shrink-0" />
            <span className="truncate">{user.email}</span>
          </span>
          <span className="inline-flex items-center justify-center gap-1.5 sm:justify-start">
            <CalendarDays aria-hidden="true" className="size-4 shrink-0" />
            {t('profile.memberSince', { date: formatDay(user.createdAt, i18n.language) })}
          </span>
        </div>
      </div>
    </div>
  );
}
