import { storageAlertMail } from './notification-mail.ts';
import type { NotificationsService } from './notifications.service.ts';

/** docs/product.md#notifications: storage alerts when usage passes 80 % and 90 % of the plan. */
export const STORAGE_ALERT_PERCENTS = [90, 80] as const;

/** The highest threshold this change of usage crossed upwards, or null. */
export function storageAlertCrossed(usage: { before: number; after: number; limit: number }): number | null {
  if (usage.limit <= 0) return null;
  for (const percent of STORAGE_ALERT_PERCENTS) {
    const threshold = (usage.limit * percent) / 100;
    if (usage.before < threshold && usage.after >= threshold) return percent;
  }
  return null;
}

/**
 * A storage alert (in-app and by mail, as the user's settings say) when new bytes (an
 * upload, a copy) pushed usage past a threshold; part of what follows them
 * (files/stored-reaction.ts).
 */
export function createStorageAlerts(deps: {
  notifications: Pick<NotificationsService, 'notify'>;
  /** The account's address, for the mail (notifications come before accounts in the module order). */
  users: { findUserById(userId: string): Promise<{ email: string } | undefined> };
  publicUrl: string;
}) {
  return async (userId: string, usage: { before: number; after: number; limit: number }): Promise<void> => {
    const crossed = storageAlertCrossed(usage);
    if (crossed === null) return;
    const user = await deps.users.findUserById(userId);
    if (!user) return;
    await deps.notifications.notify(userId, {
      type: 'storage_alert',
      // Sizes as bytes, so each reader sees them written in their own language.
      details: { percent: String(crossed), usedBytes: String(usage.after), limitBytes: String(usage.limit) },
      mail: (language) =>
        storageAlertMail(
          { to: user.email, percent: crossed, usedBytes: usage.after, limitBytes: usage.limit, publicUrl: deps.publicUrl },
          language,
        ),
    });
  };
}
