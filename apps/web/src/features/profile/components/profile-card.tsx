import type { ReactNode } from 'react';

interface ProfileCardProps {
  title: string;
  description?: string;
  /** Buttons beside the title (Edit Profile). */
  actions?: ReactNode;
  children: ReactNode;
}

/** A titled card, the building block of every Profile tab. */
export function ProfileCard({ title, description, actions, children }: ProfileCardProps) {
  return (
    <section className="rounded-card border border-line bg-surface p-5 shadow-card sm:p-6">
      <div className="mb-5 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold tracking-tight text-ink">{title}</h2>
          {description && <p className="mt-1 text-sm text-ink-muted">{description}</p>}
        </div>
        {actions && <div className="flex shrink-0 gap-2">{actions}</div>}
      </div>
      {children}
    </section>
  );
}
