import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';

/**
 * Every user-visible string comes from src/locales/<language>.json, keyed by feature
 * (`auth.login.submit`, `landing.hero.title`, …). English is bundled and loaded
 * synchronously so the first render never shows keys; more languages are added as
 * further resource files.
 */
export const defaultNS = 'translation';
export const resources = { en: { translation: en } } as const;

void i18n.use(initReactI18next).init({
  resources,
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: ['en'],
  defaultNS,
  initAsync: false,
  // React already escapes text.
  interpolation: { escapeValue: false },
});

i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language;
});

export default i18n;
