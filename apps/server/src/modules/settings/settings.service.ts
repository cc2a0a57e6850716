import type { Settings } from '@cloudvault/contract/settings';
import { DEFAULT_LISTING_ORDER, DEFAULT_SETTINGS } from '@cloudvault/contract/settings-defaults';
import type { Clock } from '../../lib/clock.ts';
import type { SettingsRepository } from './settings.repository.ts';

/** Stored values merged over the defaults group by group, so a key added later gets its default. */
export function mergeSettings(stored: unknown): Settings {
  const saved = (stored && typeof stored === 'object' ? stored : {}) as Partial<Record<keyof Settings, object>>;
  return {
    notifications: { ...DEFAULT_SETTINGS.notifications, ...saved.notifications },
    privacy: { ...DEFAULT_SETTINGS.privacy, ...saved.privacy },
    appearance: { ...DEFAULT_SETTINGS.appearance, ...saved.appearance },
    storage: { ...DEFAULT_SETTINGS.storage, ...saved.storage },
    listing: { ...DEFAULT_LISTING_ORDER, ...saved.listing },
  } as Settings;
}

export function createSettingsService(deps: {
  settings: SettingsRepository;
  /** Whether two-factor sign-in is really on: the settings object only mirrors it. */
  twoFactorEnabled(userId: string): Promise<boolean>;
  clock: Clock;
}) {
  async function get(userId: string): Promise<Settings> {
    const settings = mergeSettings(await deps.settings.find(userId));
    settings.privacy.twoFactorAuth = await deps.twoFactorEnabled(userId);
    return settings;
  }

  return {
    get,

    /** Users whose Trash empties itself, with their retention (docs/product.md#trash), for the Trash sweeper. */
    async usersWithAutoDelete(): Promise<Array<{ userId: string; deleteAfterDays: number }>> {
      return (await deps.settings.listAll())
        .map((row) => ({ userId: row.user_id, storage: mergeSettings(JSON.parse(row.data)).storage }))
        .filter(({ storage }) => storage.autoDelete)
        .map(({ userId, storage }) => ({ userId, deleteAfterDays: storage.deleteAfterDays }));
    },

    /**
     * Saves the whole object; twoFactorAuth is read-only here and always shows the real state.
     * Without `listing` (a client that predates it) the stored listing order is kept.
     */
    async update(userId: string, input: Settings): Promise<Settings> {
      const { twoFactorAuth: _ignored, ...privacy } = input.privacy;
      const listing = input.listing ?? mergeSettings(await deps.settings.find(userId)).listing;
      await deps.settings.save(userId, { ...input, privacy, listing }, deps.clock.now().toISOString());
      return get(userId);
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
