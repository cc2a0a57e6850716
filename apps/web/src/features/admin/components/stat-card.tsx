import type { ComponentType, ReactNode } from 'react';
import { cn } from '../../../lib/cn';

type Tone = 'neutral' | 'warning';

/** One figure of the overview: its name, the value large, a line of detail under it. */
export function StatCard({
  label,
  value,
  detail,
  icon: Icon,
  tone = 'neutral',
}: {
  label: string;
  value: string;
  detail?: ReactNode;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
  tone?: Tone;
}) {
  return (
    <div className="min-w-0 rounded-card border border-line bg-surface p-3.5 shadow-card sm:p-5">
      <dt className="flex items-center gap-2 text-sm font-medium text-ink-muted">
        <span
          className={cn(
            'hidden size-8 shrink-0 place-items-center rounded-lg sm:grid',
            tone === 'warning'
              ? 'bg-yellow-50 text-yellow-700 dark:bg-yellow-500/10 dark:text-yellow-300'
              : 'bg-brand-50 text-brand-700 dark:bg-brand-950 dark:text-brand-300',
          )}
        >
          <Icon aria-hidden="true" className="size-4" />
        </span>
        <span className="min-w-0 leading-tight">{label}</span>
      </dt>
      <dd className="mt-2 sm:mt-3">
        <span className="block truncate text-xl font-bold tracking-tight text-ink tabular-nums sm:text-2xl">{value}</span>
        {detail && <span className="mt-1 block text-xs text-ink-muted sm:text-sm">{detail}</span>}
      </dd>
    </div>
  );
}
