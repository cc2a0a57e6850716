import { useTranslation } from 'react-i18next';

/** Sets the document title; React 19 hoists <title> into <head>. */
export function PageTitle({ title }: { title: string }) {
  const { t } = useTranslation();
  return <title>{t('common.pageTitle', { page: title })}</title>;
}
