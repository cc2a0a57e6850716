import { useEffect } from 'react';
import { applyLanguage } from '../../../lib/i18n';
import { applyThemePreference } from '../../../lib/theme';
import { useSettings } from '../api/get-settings';

/**
 * Makes the signed-in user's theme and language those of their settings, on every page,
 * as soon as the settings load and whenever the server accepts a change. Both are also
 * remembered in localStorage so that the next visit starts in them before anything loads.
 * Not before `enabled` (the stored theme and language apply meanwhile).
 */
export function useApplyAppearance({ enabled = true }: { enabled?: boolean } = {}): void {
  const { data, error } = useSettings({ enabled });
  const theme = data?.appearance.theme;
  const language = data?.appearance.language;

  useEffect(() => {
    if (theme) applyThemePreference(theme);
  }, [theme]);

  useEffect(() => {
    if (language) applyLanguage(language);
  }, [language]);

  // docs/product.md#settings: a settings load failure is only logged.
  useEffect(() => {
    if (error) console.warn('Could not load the settings; keeping the current theme and language.', error);
  }, [error]);
}
