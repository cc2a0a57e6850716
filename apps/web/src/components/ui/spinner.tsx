import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';

interface SpinnerProps {
  className?: string;
  /** Announced to assistive technology; without it the spinner is decorative. */
  label?: string;
}

export function Spinner({ className, label }: SpinnerProps) {
  const icon = <LoaderCircle aria-hidden="true" className={cn('animate-spin', className ?? 'size-5')} />;
  if (!label) return icon;
  return (
    <span role="status" aria-label={label} className="inline-flex">
      {icon}
    </span>
  );
}

/** Fills the viewport while the app cannot show anything yet (session check). */
export function FullPageSpinner() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-label={t('ui.loading')} className="flex min-h-dvh items-center justify-center">
      <LoaderCircle aria-hidden="true" className="size-8 animate-spin text-brand-600 dark:text-brand-400" />
    </div>
  );
}

/** Fills the content area of a layout while a lazy page loads; header and footer stay put. */
export function ContentSpinner() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-label={t('ui.loading')} className="flex min-h-[50vh] flex-1 items-center justify-center">
      <LoaderCircle aria-hidden="true" className="size-7 animate-spin text-brand-600 dark:text-brand-400" />
    </div>
  );
}
