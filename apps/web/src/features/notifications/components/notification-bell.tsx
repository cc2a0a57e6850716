import { Bell, FileInput, FileUp, FolderInput, HardDrive, KeyRound, LogIn, type LucideIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { NotificationType } from '@cloudvault/contract/profile';
import { cn } from '../../../lib/cn';
import { useFormatSize } from '../../../lib/format-size';
import { useNotifications } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';
import { describeNotification } from '../notification-text';

const icons: Record<NotificationType, LucideIcon> = {
  folder_shared: FolderInput,
  file_shared: FileInput,
  storage_alert: HardDrive,
  new_sign_in: LogIn,
  password_changed: KeyRound,
  file_request_uploads: FileUp,
};

/**
 * The header bell (notifications.push): the unread count on the button; opening the panel
 * lists the latest notifications and marks them all read. The ones that were new stay
 * marked as new until the panel closes. Asks for them once `enabled` (no unread count until then).
 */
export function NotificationBell({ enabled = true }: { enabled?: boolean }) {
  const { t, i18n } = useTranslation();
  const formatSize = useFormatSize();
  const { data } = useNotifications({ enabled });
  const markRead = useMarkNotificationsRead();
  const [open, setOpen] = useState(false);
  const [newIds, setNewIds] = useState<ReadonlySet<string>>(new Set());
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const unread = data?.unread ?? 0;

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const toggle = () => {
    if (open) return setOpen(false);
    setNewIds(new Set(data?.notifications.filter((item) => !item.read).map((item) => item.id)));
    setOpen(true);
    if (unread > 0) markRead.mutate();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
      buttonRef.current?.focus();
    }
  };

  const notifications = data?.notifications ?? [];
  return (
    <div ref={containerRef} onKeyDown={onKeyDown} className="relative shrink-0">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={unread > 0 ? t('notifications.buttonUnread', { count: unread }) : t('notifications.button')}
        onClick={toggle}
        className="focus-ring relative grid size-10 place-items-center rounded-full text-ink-muted transition-colors hover:bg-surface-muted hover:text-ink aria-expanded:bg-surface-muted"
      >
        <Bell aria-hidden="true" className="size-5" />
        {unread > 0 && (
          <span
            aria-hidden="true"
            className="absolute top-1 right-1 grid h-4 min-w-4 place-items-center rounded-full bg-danger px-1 text-[0.625rem] leading-none font-bold text-white dark:text-canvas"
          >
            {unread > 9 ? '9+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div
          id={panelId}
          role="region"
          aria-label={t('notifications.title')}
          className="cv-pop-in fixed inset-x-3 top-[4.25rem] z-50 overflow-hidden rounded-card border border-line bg-surface shadow-popover sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-96"
        >
          <h2 className="border-b border-line px-4 py-3 text-sm font-semibold text-ink">{t('notifications.title')}</h2>
          {notifications.length === 0 ? (
            <p className="px-4 py-8 text-center text-sm text-ink-muted">{t('notifications.empty')}</p>
          ) : (
            <ul className="max-h-[min(24rem,70dvh)] divide-y divide-line overflow-y-auto">
              {notifications.map((item) => {
                const Icon = icons[item.type];
                const fresh = newIds.has(item.id);
                return (
                  <li key={item.id} className={cn('flex gap-3 px-4 py-3', fresh && 'bg-brand-50/60 dark:bg-brand-950/40')}>
                    <span className="grid size-8 shrink-0 place-items-center rounded-full bg-surface-muted text-ink-muted">
                      <Icon aria-hidden="true" className="size-4" />
                    </span>
                    <div className="min-w-0 flex-1">
                      <p className="text-sm break-words text-ink">
                        {fresh && <span className="sr-only">{t('notifications.new')} </span>}
                        {describeNotification(item, t, formatSize)}
                      </p>
                      <time dateTime={item.createdAt} className="text-xs text-ink-subtle">
                        {new Date(item.createdAt).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })}
                      </time>
                    </div>
                    {fresh && <span aria-hidden="true" className="mt-2 size-2 shrink-0 rounded-full bg-brand-500" />}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
