import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES } from '@cloudvault/contract/settings';
import de from '../locales/de.json';
import en from '../locales/en.json';
import es from '../locales/es.json';
import fr from '../locales/fr.json';
import zh from '../locales/zh.json';

/**
 * Every user-visible string comes from src/locales/<language>.json, keyed by feature
 * (`auth.login.submit`, `landing.hero.title`, …); en.json is the reference and
 * locales.test.ts fails when another language lacks a key. All five are bundled and
 * loaded synchronously: the first render never shows keys or a flash of English.
 */
export type Language = (typeof LANGUAGES)[number];

export const defaultNS = 'translation';
export const resources = {
  en: { translation: en },
  es: { translation: es },
  fr: { translation: fr },
  de: { translation: de },
  zh: { translation: zh },
} as const;

/** The last language of the user's settings, so a reload starts in it before settings load. */
const LANGUAGE_KEY = 'language';

function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

function storedLanguage(): Language {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(stored) ? stored : 'en';
  } catch {
    return 'en';
  }
}

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  defaultNS,
  initAsync: false,
  // React already escapes text.
  interpolation: { escapeValue: false },
});

/** Screen readers and the browser's own translation read the page's language from <html lang>. */
function markDocumentLanguage(language: string): void {
  // Unit tests load this module outside a browser.
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
markDocumentLanguage(i18n.language);
i18n.on('languageChanged', markDocumentLanguage);

/** Switches the whole interface to `language` and remembers it for the next visit. */
export function applyLanguage(language: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // Storage unavailable: the language still applies until the page is left.
  }
  if (i18n.language !== language) void i18n.changeLanguage(language);
}

export default i18n;
