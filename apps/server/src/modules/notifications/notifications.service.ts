import type { AppNotification, NotificationType } from '@cloudvault/contract/profile';
import type { Language, Settings } from '@cloudvault/contract/settings';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { NotificationsRepository } from './notifications.repository.ts';

/** Which notifications setting governs each kind of event (docs/product.md#notifications). */
const CATEGORY: Record<NotificationType, keyof Omit<Settings['notifications'], 'email' | 'push'>> = {
  folder_shared: 'fileSharing',
  file_shared: 'fileSharing',
  storage_alert: 'storageAlerts',
  new_sign_in: 'securityAlerts',
  password_changed: 'securityAlerts',
  file_request_uploads: 'fileSharing',
};

const RECENT = 30;

/**
 * Tells a user about an event the way their settings say: an e-mail when `email` and the
 * event's own switch are on, an in-app notification (the header bell) when `push` is on.
 * Never fails what caused it: a failure is logged.
 */
export function createNotificationsService(deps: {
  notifications: NotificationsRepository;
  settingsOf(userId: string): Promise<Settings>;
  sendMail(message: MailMessage): Promise<void>;
  clock: Clock;
  log: ServiceLog;
}) {
  return {
    /** `mail` is written in the user's language, which their settings hold. */
    async notify(
      userId: string,
      event: { type: NotificationType; details: Record<string, string>; mail: (language: Language) => MailMessage },
    ): Promise<void> {
      try {
        const { notifications, appearance } = await deps.settingsOf(userId);
        if (!notifications[CATEGORY[event.type]]) return;
        if (notifications.push) {
          await deps.notifications.insert({
            id: newId(),
            user_id: userId,
            type: event.type,
            details: JSON.stringify(event.details),
            read_at: null,
            created_at: deps.clock.now().toISOString(),
          });
        }
        if (notifications.email) await deps.sendMail(event.mail(appearance.language));
      } catch (error) {
        deps.log.error({ err: error, userId, type: event.type }, 'notification not delivered');
      }
    },

    async list(userId: string): Promise<{ notifications: AppNotification[]; unread: number }> {
      const [rows, unread] = await Promise.all([deps.notifications.recent(userId, RECENT), deps.notifications.unreadCount(userId)]);
      return {
        notifications: rows.map((row) => ({
          id: row.id,
          type: row.type as NotificationType,
          details: JSON.parse(row.details) as Record<string, string>,
          read: row.read_at !== null,
          createdAt: row.created_at,
        })),
        unread,
      };
    },

    async markAllRead(userId: string): Promise<void> {
      await deps.notifications.markAllRead(userId, deps.clock.now().toISOString());
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
