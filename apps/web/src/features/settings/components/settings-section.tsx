import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

interface SettingsSectionProps {
  /** The anchor other pages link to (/settings#privacy). */
  id: string;
  icon: LucideIcon;
  title: string;
  description: string;
  children: ReactNode;
}

/** One titled card of the Settings page; its rows are separated by lines. */
export function SettingsSection({ id, icon: Icon, title, description, children }: SettingsSectionProps) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-24 rounded-card border border-line bg-surface shadow-card">
      <div className="flex items-start gap-3 border-b border-line px-5 py-4 sm:px-6">
        <span className="grid size-9 shrink-0 place-items-center rounded-control bg-brand-50 text-brand-700 dark:bg-brand-950 dark:text-brand-300">
          <Icon aria-hidden="true" className="size-5" />
        </span>
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="text-base font-semibold text-ink">
            {title}
          </h2>
          <p className="mt-0.5 text-sm text-ink-muted">{description}</p>
        </div>
      </div>
      <div className="divide-y divide-line px-5 sm:px-6">{children}</div>
    </section>
  );
}
