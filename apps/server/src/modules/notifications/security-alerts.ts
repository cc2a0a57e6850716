import type { Clock } from '../../lib/clock.ts';
import { deviceName } from '../../lib/device-name.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import { newSignInMail, passwordChangedMail } from './notification-mail.ts';
import type { NotificationsService } from './notifications.service.ts';

/** The account holder, as far as a security alert needs them. */
interface AlertedUser {
  id: string;
  email: string;
}

/**
 * What follows a sign-in or a password change (docs/product.md#notifications): the entry
 * in the account's activity log, and the security alert the user's settings ask for.
 */
export function createSecurityAlerts(deps: {
  activity: Pick<ActivityService, 'record' | 'hasRecorded'>;
  notifications: Pick<NotificationsService, 'notify'>;
  clock: Clock;
  publicUrl: string;
}) {
  async function recordSignIn(user: AlertedUser, device: string, newDevice: boolean): Promise<void> {
    await deps.activity.record(user.id, 'sign_in', { device });
    if (!newDevice) return;
    const at = deps.clock.now().toISOString();
    await deps.notifications.notify(user.id, {
      type: 'new_sign_in',
      details: { device },
      mail: (language) => newSignInMail({ to: user.email, device, at, publicUrl: deps.publicUrl }, language),
    });
  }

  return {
    /** After a sign-in; the alert only when the device has not signed in before. */
    async signedIn(user: AlertedUser, client: { userAgent: string | undefined }, newDevice: boolean): Promise<void> {
      await recordSignIn(user, deviceName(client.userAgent), newDevice);
    },

    /**
     * After a WebDAV sign-in with the account password, at most once a day per client
     * (decision 0037). A WebDAV client opens no session, so a device is new when the
     * account's activity holds no WebDAV sign-in from a client of its name.
     */
    async signedInOverWebDav(user: AlertedUser, client: { userAgent: string | undefined }): Promise<void> {
      const device = `${deviceName(client.userAgent)} (WebDAV)`;
      const seenBefore = await deps.activity.hasRecorded(user.id, 'sign_in', { device });
      await recordSignIn(user, device, !seenBefore);
    },

    /** After the password changed, from the Profile page or through a reset link. */
    async passwordChanged(user: AlertedUser): Promise<void> {
      await deps.activity.record(user.id, 'password_change');
      await deps.notifications.notify(user.id, {
        type: 'password_changed',
        details: {},
        mail: (language) =>
          passwordChangedMail({ to: user.email, at: deps.clock.now().toISOString(), publicUrl: deps.publicUrl }, language),
      });
    },
  };
}
