import 'i18next';
import type en from '../locales/en.json';

/** Types t() keys from the English resource file: a missing key is a compile error. */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
