import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

export type BadgeTone = 'neutral' | 'brand' | 'success' | 'warning' | 'danger';

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-surface-muted text-ink-muted ring-line-strong',
  brand: 'bg-brand-50 text-brand-700 ring-brand-200 dark:bg-brand-950 dark:text-brand-300 dark:ring-brand-800',
  success: 'bg-green-50 text-green-700 ring-green-600/25 dark:bg-green-500/10 dark:text-green-300 dark:ring-green-400/30',
  warning: 'bg-yellow-50 text-yellow-800 ring-yellow-600/30 dark:bg-yellow-500/10 dark:text-yellow-200 dark:ring-yellow-400/30',
  danger: 'bg-red-50 text-red-700 ring-red-600/25 dark:bg-red-500/10 dark:text-red-300 dark:ring-red-400/30',
};

/** A small rounded label (a status, 'Current'). */
export function Badge({ tone = 'neutral', children, className }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset',
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
