import { Copy, Download, FolderInput, Share2, Star, StarOff, Trash2, X } from 'lucide-react';
import { useContext, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../../lib/cn';
import { DriveScopeContext } from '../slots';

export type SelectionBarAction = 'download' | 'move' | 'copy' | 'share' | 'delete' | 'star' | 'unstar';

interface SelectionBarProps {
  count: number;
  onAction: (action: SelectionBarAction) => void;
  onClear: () => void;
  /** Whether every selected item is starred (the button unstars); undefined: no starring. */
  starred?: boolean;
  className?: string;
}

/**
 * What can be done with the selected items, with their count: a toolbar (one tab stop, the
 * arrows move between its buttons). Share is there for one item only, Star (or Unstar, when
 * all are starred) where the app gives starring; on a phone the buttons
 * keep their icons and names and drop their visible labels.
 */
export function SelectionBar({ count, onAction, onClear, starred, className }: SelectionBarProps) {
  const { t } = useTranslation();
  const barRef = useRef<HTMLDivElement>(null);
  // Share is the owner's: not offered inside a folder shared with the user.
  const canShare = useContext(DriveScopeContext) === null;
  const actions = [
    { action: 'download' as const, icon: Download, label: t('dashboard.selection.download') },
    { action: 'move' as const, icon: FolderInput, label: t('dashboard.selection.move') },
    { action: 'copy' as const, icon: Copy, label: t('dashboard.selection.copy') },
    ...(count === 1 && canShare ? [{ action: 'share' as const, icon: Share2, label: t('dashboard.selection.share') }] : []),
    ...(starred === undefined
      ? []
      : [
          starred
            ? { action: 'unstar' as const, icon: StarOff, label: t('dashboard.selection.unstar') }
            : { action: 'star' as const, icon: Star, label: t('dashboard.selection.star') },
        ]),
    { action: 'delete' as const, icon: Trash2, label: t('dashboard.selection.delete') },
  ];

  // WAI-ARIA toolbar: the arrows, Home and End move the focus among the buttons, wrapping.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(barRef.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    const last = buttons.length - 1;
    const next = { ArrowRight: index >= last ? 0 : index + 1, ArrowLeft: index <= 0 ? last : index - 1, Home: 0, End: last }[
      event.key as 'ArrowRight'
    ];
    if (next === undefined) return;
    event.preventDefault();
    for (const [position, button] of buttons.entries()) button.tabIndex = position === next ? 0 : -1;
    buttons[next]?.focus();
  };

  // Icons alone below md, 32 px wide: six actions, the count and Clear fit a 360-px phone.
  const button =
    'focus-ring inline-flex h-9 w-8 shrink-0 items-center justify-center gap-2 rounded-control text-sm font-medium md:w-auto md:px-2.5';
  return (
    <div
      ref={barRef}
      role="toolbar"
      aria-label={t('dashboard.selection.toolbar')}
      onKeyDown={onKeyDown}
      className={cn(
        'flex items-center gap-0.5 rounded-card border border-brand-200 bg-brand-50 px-1.5 py-1 sm:gap-1 sm:px-2 dark:border-brand-500/30 dark:bg-surface-muted',
        className,
      )}
    >
      <button
        type="button"
        tabIndex={-1}
        onClick={onClear}
        aria-label={t('dashboard.selection.clear')}
        title={t('dashboard.selection.clear')}
        className={cn(button, 'text-ink-muted hover:bg-surface hover:text-ink')}
      >
        <X aria-hidden="true" className="size-4" />
      </button>
      <p className="min-w-0 flex-1 truncate px-1 text-sm font-semibold text-ink tabular-nums">
        {t('dashboard.selection.count', { count })}
      </p>
      {actions.map(({ action, icon: Icon, label }, index) => (
        <button
          key={action}
          type="button"
          // The toolbar's tab stop starts on its first action.
          tabIndex={index === 0 ? 0 : -1}
          onClick={() => onAction(action)}
          aria-label={label}
          title={label}
          className={cn(button, action === 'delete' ? 'text-danger hover:bg-danger-soft' : 'text-ink hover:bg-surface')}
        >
          <Icon aria-hidden="true" className="size-4" />
          <span aria-hidden="true" className="hidden md:inline">
            {label}
          </span>
        </button>
      ))}
    </div>
  );
}
