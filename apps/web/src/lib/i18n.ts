import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES } from '@cloudvault/contract/languages';
import englishFirstLoad from 'virtual:english/first-load';

/**
 * Every user-visible string comes from src/locales/<language>.json, keyed by feature
 * (`auth.login.submit`, `landing.hero.title`, …); en.json is the reference and
 * locales.test.ts fails when another language lacks a key. English, the fallback, is
 * bundled: the sections the public pages use; the rest comes with the pages that need it
 * (`loadAppStrings`). Every other language is its own chunk, fetched only by those who
 * use it (docs/decisions/0031-web-delivery.md). `i18nReady` resolves once the page's language
 * is in, and the app renders only then: the first render never shows keys or a flash
 * of English.
 */
export type Language = (typeof LANGUAGES)[number];

export const defaultNS = 'translation';

/** Vite makes one chunk of each file; nothing is fetched until a loader runs. */
const otherLanguages = import.meta.glob<{ default: ResourceKey }>(['../locales/*.json', '!../locales/en.json']);

const languageChunks: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = otherLanguages[`../locales/${language}.json`];
    if (!load) return callback(null, {});
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

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

/** Resolves when the stored language's strings are loaded (English needs no fetch). */
export const i18nReady = i18n
  .use(languageChunks)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: englishFirstLoad } },
    // English is bundled; the backend fills in the rest on demand.
    partialBundledLanguages: true,
    lng: storedLanguage(),
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    defaultNS,
    // React already escapes text.
    interpolation: { escapeValue: false },
  });

let appStrings: Promise<void> | undefined;

/**
 * Adds the English sections the public pages do not use (the signed-in app, sharing, the
 * operator console). Their routes load with it, so they never render a key. Once only.
 */
export function loadAppStrings(): Promise<void> {
  appStrings ??= import('virtual:english/rest').then((module) => {
    i18n.addResourceBundle('en', defaultNS, module.default, true, false);
  });
  return appStrings;
}

/** Screen readers and the browser's own translation read the page's language from <html lang>. */
function markDocumentLanguage(language: string): void {
  // Unit tests load this module outside a browser.
  // Only when it changes (index.html starts in English): a profile of the landing page showed
  // the write of the same value costing a style recalculation.
  if (typeof document !== 'undefined' && document.documentElement.lang !== language) document.documentElement.lang = language;
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
