import { DEFAULT_SETTINGS } from '@cloudvault/contract/settings-defaults';
import type { Settings } from '@cloudvault/contract/settings';

type Loose = { [Group in keyof Settings]?: Partial<Settings[Group]> | null };

/**
 * Loaded settings over the defaults of docs/product.md#settings, group by group: an older server or a stored
 * object without a newer key still gives a whole settings object to show and to send back.
 */
export function mergeSettings(loaded: Loose | null | undefined): Settings {
  return {
    notifications: { ...DEFAULT_SETTINGS.notifications, ...loaded?.notifications },
    privacy: { ...DEFAULT_SETTINGS.privacy, ...loaded?.privacy },
    appearance: { ...DEFAULT_SETTINGS.appearance, ...loaded?.appearance },
    storage: { ...DEFAULT_SETTINGS.storage, ...loaded?.storage },
  };
}
