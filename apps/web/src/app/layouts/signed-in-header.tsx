import { ChevronDown, Clock, CreditCard, LogOut, Settings, ShieldCheck, Sparkles, Star, User as UserIcon } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import type { User } from '@cloudvault/contract/accounts';
import { DropdownMenu } from '../../components/ui/dropdown-menu';
import { Logo } from '../../components/ui/logo';
import { useLogout } from '../../features/auth/api/logout';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { useApplyAppearance } from '../../features/settings/hooks/use-apply-appearance';
import { useCurrentSubscription } from '../../hooks/use-current-subscription';

function initials(user: User): string {
  return `${user.firstName.trim().charAt(0)}${user.lastName.trim().charAt(0)}`.toUpperCase();
}

/** `loadDetails`: whether to ask for what the session does not say (settings, subscription, notifications). */
export function SignedInHeader({ user, loadDetails }: { user: User; loadDetails: boolean }) {
  const { t } = useTranslation();
  const signOut = useLogout();
  // The user's theme and language follow their settings on every signed-in page.
  useApplyAppearance({ enabled: loadDetails });
  const current = useCurrentSubscription({ enabled: loadDetails });

  // docs/product.md#signed-in-header: the header's subscription failure is only logged.
  useEffect(() => {
    if (current.error) console.warn('Could not load the subscription for the plan badge.', current.error);
  }, [current.error]);

  // The session's plan shows until the subscription answers, so the badge does not pop in.
  const plan = current.data?.plan ?? user.plan;
  const planName = current.data?.planDetails.name ?? t(`common.plans.${plan}`);

  return (
    <header className="sticky top-0 z-40 border-b border-line bg-surface/85 pt-[env(safe-area-inset-top)] backdrop-blur-md">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6 lg:px-8">
        <Link to="/" className="focus-ring -m-1 shrink-0 rounded-lg p-1">
          <Logo wordmark="responsive" />
        </Link>

        <div className="flex min-w-0 items-center gap-2 sm:gap-3">
          {/* Recent and Starred across folders; on a phone they are in the account menu, so the name keeps its room. */}
          <nav aria-label={t('layout.filesNav.label')} className="hidden items-center gap-1 sm:flex">
            {[
              { to: '/recent', label: t('layout.filesNav.recent'), icon: Clock },
              { to: '/starred', label: t('layout.filesNav.starred'), icon: Star },
            ].map(({ to, label, icon: Icon }) => (
              <NavLink
                key={to}
                to={to}
                className="focus-ring inline-flex items-center gap-1.5 rounded-control px-2 py-1.5 text-sm font-medium text-ink-muted hover:bg-surface-muted hover:text-ink aria-[current=page]:text-ink"
              >
                <Icon aria-hidden="true" className="size-4" />
                {label}
              </NavLink>
            ))}
          </nav>
          {plan !== 'FREE' && (
            <span
              title={t('layout.planBadge', { plan: planName })}
              className="inline-flex shrink-0 items-center gap-1 rounded-full bg-brand-50 px-2.5 py-1 text-xs font-semibold text-brand-700 ring-1 ring-brand-200 ring-inset dark:bg-brand-950 dark:text-brand-300 dark:ring-brand-800"
            >
              <Sparkles aria-hidden="true" className="size-3.5" />
              <span aria-hidden="true">{planName}</span>
              <span className="sr-only">{t('layout.planBadge', { plan: planName })}</span>
            </span>
          )}
          <NotificationBell enabled={loadDetails} />
          {/* A phone shows the first name alone, so it is rarely cut; what does not fit ends in an
              ellipsis, with the whole text in the title. The e-mail waits for a wider screen. */}
          <div className="min-w-0 text-right leading-tight">
            <p className="truncate text-sm font-semibold text-ink" title={`${user.firstName} ${user.lastName}`}>
              <span className="sm:hidden">{user.firstName}</span>
              <span className="hidden sm:inline">
                {user.firstName} {user.lastName}
              </span>
            </p>
            <p className="hidden truncate text-xs text-ink-muted sm:block" title={user.email}>
              {user.email}
            </p>
          </div>
          <DropdownMenu
            label={t('layout.accountMenu.label')}
            triggerClassName="flex shrink-0 items-center gap-1 rounded-full p-0.5 pr-1.5 transition-colors hover:bg-surface-muted aria-expanded:bg-surface-muted"
            trigger={
              <>
                {/* The initials are drawn as generated content: decoration, so the button's name
                    ("Account menu") is all its text (WCAG 2.5.3, label in name). */}
                <span
                  aria-hidden="true"
                  data-initials={initials(user)}
                  className="grid size-9 place-items-center rounded-full bg-gradient-to-br from-brand-500 to-brand-700 text-sm font-semibold text-white before:content-[attr(data-initials)]"
                />
                <ChevronDown aria-hidden="true" className="size-4 text-ink-subtle" />
              </>
            }
            items={[
              { id: 'profile', label: t('layout.accountMenu.profile'), icon: UserIcon, to: '/profile' },
              {
                id: 'subscription',
                label: t('layout.accountMenu.subscription'),
                icon: CreditCard,
                to: '/subscription',
              },
              { id: 'settings', label: t('layout.accountMenu.settings'), icon: Settings, to: '/settings' },
              // After the account's own entries (product.md's order), as the header shows them only from sm up.
              { id: 'recent', label: t('layout.filesNav.recent'), icon: Clock, to: '/recent', separatorBefore: true },
              { id: 'starred', label: t('layout.filesNav.starred'), icon: Star, to: '/starred' },
              // Operators only: nobody else is shown that a console exists.
              ...(user.role === 'admin' ? [{ id: 'admin', label: t('layout.accountMenu.admin'), icon: ShieldCheck, to: '/admin' }] : []),
              {
                id: 'sign-out',
                label: t('layout.accountMenu.signOut'),
                icon: LogOut,
                onSelect: signOut,
                tone: 'danger',
                separatorBefore: true,
              },
            ]}
          />
        </div>
      </div>
    </header>
  );
}
