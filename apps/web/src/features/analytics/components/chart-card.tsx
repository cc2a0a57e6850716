import type { ReactNode } from 'react';
import { cn } from '../../../lib/cn';

/** A titled card of the analytics, a region named by its heading. */
export function ChartCard({
  id,
  title,
  description,
  className,
  children,
}: {
  id: string;
  title: string;
  description?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={cn('min-w-0 rounded-card border border-line bg-surface p-5 shadow-card sm:p-6', className)}>
      <h3 id={id} className="font-semibold text-ink">
        {title}
      </h3>
      {description && <p className="mt-1 text-sm text-ink-muted">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}
