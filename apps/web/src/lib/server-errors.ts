import i18n from './i18n';

/**
 * Codes whose server text carries figures only the server knows (sizes, limits, minutes,
 * the plan's name). Their `serverErrors.*` entries leave those out, so in English the
 * server's own, more precise text is shown instead of the translation.
 */
const CODES_WITH_FIGURES = new Set([
  'QUOTA_EXCEEDED',
  'OVER_STORAGE_LIMIT',
  'FILE_TOO_LARGE',
  'EXPIRY_TOO_LONG',
  'TOO_MANY_UPLOADS',
  'RATE_LIMITED',
]);

/**
 * The translation of a server error `code` in the current language (`serverErrors.<CODE>`),
 * or undefined when there is none and the server's own text should be shown.
 */
export function translatedServerError(code: string | undefined): string | undefined {
  if (!code) return undefined;
  const language = i18n.resolvedLanguage ?? i18n.language;
  // English is the server's own language: keep its figures rather than the generic text.
  if (language.startsWith('en') && CODES_WITH_FIGURES.has(code)) return undefined;
  // Only the current language's own entry, never the English fallback.
  const text: unknown = i18n.getResource(language, 'translation', `serverErrors.${code}`);
  return typeof text === 'string' ? text : undefined;
}
