/**
 * The colour theme of the whole app. public/theme.js applies the stored preference before
 * the first paint (and keeps following the operating system while it is 'system'); this
 * module stores a new preference and applies it at once, for the settings to call.
 */
export type ThemePreference = 'light' | 'dark' | 'system';

/** Shared with public/theme.js, which reads it before React loads. */
const THEME_KEY = 'theme';

export function storedThemePreference(): ThemePreference {
  try {
    const stored = window.localStorage.getItem(THEME_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

export function applyThemePreference(preference: ThemePreference): void {
  try {
    window.localStorage.setItem(THEME_KEY, preference);
  } catch {
    // Storage unavailable: the theme still applies to this page.
  }
  const systemDark = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.classList.toggle('dark', preference === 'dark' || (preference === 'system' && systemDark));
}
