import { Link2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useLink } from '../api/link';

/**
 * Settings › Security, single sign-on (docs/api.md#single-sign-on): which identity at the
 * operator's provider signs in to this account. Nothing shows for an account without one.
 */
export function SingleSignOnSection() {
  const { t, i18n } = useTranslation();
  const { data } = useLink();
  const link = data?.link;
  if (!link) return null;
  return (
    <section
      id="single-sign-on"
      aria-labelledby="single-sign-on-title"
      className="scroll-mt-24 rounded-card border border-line bg-surface shadow-card"
    >
      <div className="flex items-start gap-3 px-5 py-4 sm:px-6">
        <span className="grid size-9 shrink-0 place-items-center rounded-control bg-brand-50 text-brand-700 dark:bg-brand-950 dark:text-brand-300">
          <Link2 aria-hidden="true" className="size-5" />
        </span>
        <div className="min-w-0">
          <h2 id="single-sign-on-title" className="text-base font-semibold text-ink">
            {t('auth.singleSignOn.link.title')}
          </h2>
          <p className="mt-0.5 text-sm text-ink-muted">{t('auth.singleSignOn.link.description', { label: link.label })}</p>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-ink-muted">{t('auth.singleSignOn.link.email')}</dt>
            <dd className="min-w-0 break-all text-ink">{link.email}</dd>
            <dt className="text-ink-muted">{t('auth.singleSignOn.link.since')}</dt>
            <dd className="text-ink">{new Date(link.linkedAt).toLocaleDateString(i18n.language, { dateStyle: 'medium' })}</dd>
          </dl>
        </div>
      </div>
    </section>
  );
}
