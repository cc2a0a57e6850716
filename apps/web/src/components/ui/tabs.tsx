import { useId, useRef, type ComponentType, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

export interface TabItem<Id extends string> {
  id: Id;
  label: string;
  icon?: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
}

interface TabsProps<Id extends string> {
  /** The tab list's accessible name. */
  label: string;
  tabs: ReadonlyArray<TabItem<Id>>;
  selected: Id;
  onSelect: (id: Id) => void;
  /** The selected tab's panel. */
  children: ReactNode;
  className?: string;
}

/**
 * Tabs (WAI-ARIA tabs pattern, automatic activation): one Tab stop for the list, arrows
 * move and select, Home and End jump to the ends, then Tab enters the panel. Only the
 * selected panel is rendered.
 */
export function Tabs<Id extends string>({ label, tabs, selected, onSelect, children, className }: TabsProps<Id>) {
  const baseId = useId();
  const tabRefs = useRef(new Map<Id, HTMLButtonElement | null>());
  const tabId = (id: Id) => `${baseId}-tab-${id}`;
  const panelId = `${baseId}-panel`;

  const move = (to: number) => {
    const tab = tabs[(to + tabs.length) % tabs.length];
    if (!tab) return;
    onSelect(tab.id);
    tabRefs.current.get(tab.id)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.id === selected);
    const target = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    move(target);
  };

  return (
    <div className={cn('min-w-0', className)}>
      <div className="overflow-x-auto border-b border-line">
        <div role="tablist" aria-label={label} onKeyDown={onKeyDown} className="-mb-px flex min-w-max gap-1">
          {tabs.map((tab) => {
            const active = tab.id === selected;
            const Icon = tab.icon;
            return (
              <button
                key={tab.id}
                ref={(element) => {
                  tabRefs.current.set(tab.id, element);
                }}
                type="button"
                role="tab"
                id={tabId(tab.id)}
                aria-selected={active}
                aria-controls={active ? panelId : undefined}
                tabIndex={active ? 0 : -1}
                onClick={() => onSelect(tab.id)}
                className={cn(
                  'focus-ring inline-flex h-11 items-center gap-2 rounded-t-control border-b-2 px-3 text-sm font-semibold whitespace-nowrap transition-colors sm:px-4',
                  active
                    ? 'border-brand-600 text-brand-700 dark:border-brand-400 dark:text-brand-300'
                    : 'border-transparent text-ink-muted hover:border-line-strong hover:text-ink',
                )}
              >
                {Icon && <Icon aria-hidden="true" className="hidden size-4 sm:block" />}
                {tab.label}
              </button>
            );
          })}
        </div>
      </div>
      <div
        role="tabpanel"
        id={panelId}
        aria-labelledby={tabId(selected)}
        tabIndex={0}
        className="pt-6 outline-none focus-visible:ring-2 focus-visible:ring-brand-500/40 rounded-control"
      >
        {children}
      </div>
    </div>
  );
}
