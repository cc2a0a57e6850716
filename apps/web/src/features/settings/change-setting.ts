import type { Settings } from '@cloudvault/contract/settings';

/** Asks to change one setting; the page sends the whole object with it. */
export type ChangeSetting = <Group extends keyof Settings, Key extends keyof Settings[Group]>(
  group: Group,
  key: Key,
  value: Settings[Group][Key],
) => void;

/** The whole settings object with one value changed. */
export function withSetting<Group extends keyof Settings, Key extends keyof Settings[Group]>(
  settings: Settings,
  group: Group,
  key: Key,
  value: Settings[Group][Key],
): Settings {
  return { ...settings, [group]: { ...settings[group], [key]: value } };
}
