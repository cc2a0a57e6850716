import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';

interface LogoProps {
  className?: string;
  /**
   * The product name beside the mark: always, never, or only from the `sm` breakpoint
   * (below it the name stays available to screen readers).
   */
  wordmark?: 'always' | 'never' | 'responsive';
}

/** The CloudVault mark (a cloud with a lock) and wordmark. */
export function Logo({ className, wordmark = 'always' }: LogoProps) {
  const { t } = useTranslation();
  // useId() output contains characters that url(#…) references do not accept.
  const gradientId = `logo-${useId().replace(/[^\w-]/g, '')}`;

  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <svg viewBox="0 0 32 32" aria-hidden="true" className="size-8 shrink-0">
        <defs>
          <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="var(--color-brand-500)" />
            <stop offset="1" stopColor="var(--color-brand-700)" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
        <path d="M10.5 22.5h11a4.5 4.5 0 0 0 .6-8.96A6 6 0 0 0 10.6 15a3.75 3.75 0 0 0-.1 7.5Z" fill="#fff" />
        <rect x="13.5" y="16.25" width="5" height="4" rx="1" fill="var(--color-brand-600)" />
        <path d="M14.5 16.25v-1.25a1.5 1.5 0 0 1 3 0v1.25" fill="none" stroke="var(--color-brand-600)" strokeWidth="1.2" />
      </svg>
      {wordmark !== 'never' && (
        <span className={cn('text-lg font-bold tracking-tight text-ink', wordmark === 'responsive' && 'sr-only sm:not-sr-only')}>
          {t('common.appName')}
        </span>
      )}
    </span>
  );
}
