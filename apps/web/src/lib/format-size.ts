import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytesIn } from '@cloudvault/contract/format';

/** Sizes in the interface's current language ('1,5 Ko' in French): formatBytesIn. */
export function useFormatSize(): (bytes: number | string | null | undefined) => string {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useCallback((bytes) => formatBytesIn(bytes, language), [language]);
}
