/**
 * The interface languages, apart from the settings schema: the web app's i18n needs the list
 * on every first visit, and must not pull the TypeBox runtime into the entry for it.
 */
export const LANGUAGES = ['en', 'es', 'fr', 'de', 'zh'] as const;
