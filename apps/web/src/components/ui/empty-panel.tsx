import type { LucideIcon } from 'lucide-react';
import type { AriaRole, ReactNode } from 'react';
import { cn } from '../../lib/cn';

interface EmptyPanelProps {
  icon: LucideIcon;
  title: string;
  hint: string;
  /** `status` where the panel replaces a spinner and a screen reader should hear it. */
  role?: AriaRole;
  /** Its height in the card it fills. */
  className?: string;
  /** An action under the hint (a link, a button). */
  children?: ReactNode;
}

/** The inside of a card with nothing to list: a picture, what is (not) there and why, and maybe a way on. */
export function EmptyPanel({ icon: Icon, title, hint, role, className = 'min-h-48', children }: EmptyPanelProps) {
  return (
    <div role={role} className={cn('flex flex-col items-center justify-center gap-3 px-6 py-12 text-center', className)}>
      <span className="grid size-14 place-items-center rounded-2xl bg-surface-muted text-ink-muted">
        <Icon aria-hidden="true" className="size-7" />
      </span>
      <h2 className="text-base font-semibold text-ink">{title}</h2>
      <p className="max-w-sm text-sm text-ink-muted">{hint}</p>
      {children}
    </div>
  );
}
