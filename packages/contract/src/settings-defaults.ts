import type { Settings } from './settings.ts';

// Values without the schemas, so the web app can read them without bundling TypeBox.

export const DELETE_AFTER_DAYS = [7, 30, 90, 365] as const;

/** docs/product.md#settings: what a new account starts with; stored values merge over these. */
export const DEFAULT_SETTINGS: Settings = {
  notifications: { email: true, push: true, fileSharing: true, storageAlerts: true, securityAlerts: true },
  privacy: { profileVisibility: 'private', shareAnalytics: false, twoFactorAuth: false },
  appearance: { theme: 'system', language: 'en' },
  storage: { autoDelete: false, deleteAfterDays: 30, compressionEnabled: true },
};

/**
 * The order the drive lists a folder in until the user picks another (settings `listing`):
 * apart from DEFAULT_SETTINGS because that group is optional in a save, so a client that
 * does not know it keeps sending the four groups it knows.
 */
export const DEFAULT_LISTING_ORDER: NonNullable<Settings['listing']> = { sort: 'name', order: 'asc' };
