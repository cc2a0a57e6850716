import type { ReactNode } from 'react';
import { Spinner } from '../../../components/ui/spinner';

/** A list or page still loading. */
export function LoadingState({ label }: { label: string }) {
  return (
    <div role="status" className="flex min-h-48 flex-col items-center justify-center gap-3 text-sm text-ink-muted">
      <Spinner className="size-7 text-brand-600 dark:text-brand-400" />
      {label}
    </div>
  );
}

/** A message in place of content: empty, failed, gone. `alert` announces it (failures). */
export function Notice({
  icon,
  title,
  body,
  alert = false,
  children,
}: {
  icon: ReactNode;
  title: string;
  body?: string;
  alert?: boolean;
  children?: ReactNode;
}) {
  return (
    <div role={alert ? 'alert' : undefined} className="flex min-h-48 flex-col items-center justify-center gap-3 px-6 py-12 text-center">
      <span className="grid size-14 place-items-center rounded-2xl bg-surface-muted text-ink-muted">{icon}</span>
      <h2 className="text-base font-semibold text-ink">{title}</h2>
      {body && <p className="max-w-sm text-sm text-ink-muted">{body}</p>}
      {children && <div className="mt-1 flex flex-wrap justify-center gap-2">{children}</div>}
    </div>
  );
}
