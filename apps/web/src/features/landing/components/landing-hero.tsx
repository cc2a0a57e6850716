import { ArrowRight, Cloud, FolderLock, Share2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';

export function LandingHero() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      {/* Decorative backdrop: a soft brand glow and a fading grid. */}
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10">
        <div className="absolute left-1/2 top-[-12rem] h-[36rem] w-[64rem] -translate-x-1/2 rounded-full bg-gradient-to-tr from-brand-200 via-brand-100 to-transparent opacity-70 blur-3xl dark:from-brand-900 dark:via-brand-950 dark:opacity-60" />
        <div className="absolute inset-0 bg-[linear-gradient(to_right,var(--cv-line)_1px,transparent_1px),linear-gradient(to_bottom,var(--cv-line)_1px,transparent_1px)] bg-[size:3.5rem_3.5rem] opacity-40 [mask-image:radial-gradient(ellipse_at_top,black_20%,transparent_70%)]" />
      </div>

      <div className="mx-auto max-w-6xl px-4 pb-20 pt-16 text-center sm:px-8 sm:pb-28 sm:pt-24">
        <p className="inline-flex items-center gap-2 rounded-full border border-brand-200 bg-surface/70 px-3.5 py-1.5 text-xs font-semibold uppercase tracking-wider text-brand-700 backdrop-blur dark:border-brand-800 dark:text-brand-300">
          <Cloud aria-hidden="true" className="size-3.5" />
          {t('landing.hero.eyebrow')}
        </p>
        <h1
          id="hero-title"
          className="mx-auto mt-6 max-w-3xl text-4xl font-extrabold tracking-tight text-ink sm:text-6xl sm:leading-[1.05]"
        >
          {t('landing.hero.title')}
        </h1>
        <p className="mx-auto mt-5 max-w-2xl text-base leading-relaxed text-ink-muted sm:text-lg">{t('landing.hero.subtitle')}</p>
        <div className="mt-9 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
          <Link to="/register" className={buttonClasses({ size: 'lg' })}>
            {t('landing.hero.primaryCta')}
            <ArrowRight aria-hidden="true" className="size-4" />
          </Link>
          <Link to="/pricing" className={buttonClasses({ size: 'lg', variant: 'secondary' })}>
            {t('landing.hero.secondaryCta')}
          </Link>
        </div>

        {/* A simple illustration of the three promises; no invented data. */}
        <div aria-hidden="true" className="mx-auto mt-16 flex max-w-md items-center justify-center gap-4 sm:gap-6">
          <span className="grid size-14 place-items-center rounded-2xl border border-line bg-surface text-brand-600 shadow-card sm:size-16 dark:text-brand-400">
            <FolderLock className="size-6 sm:size-7" />
          </span>
          <span className="h-px w-8 bg-gradient-to-r from-transparent via-brand-300 to-transparent sm:w-14 dark:via-brand-700" />
          <span className="grid size-20 place-items-center rounded-3xl bg-gradient-to-br from-brand-500 to-brand-700 text-white shadow-lg shadow-brand-600/30 sm:size-24">
            <Cloud className="size-9 sm:size-11" />
          </span>
          <span className="h-px w-8 bg-gradient-to-r from-transparent via-brand-300 to-transparent sm:w-14 dark:via-brand-700" />
          <span className="grid size-14 place-items-center rounded-2xl border border-line bg-surface text-brand-600 shadow-card sm:size-16 dark:text-brand-400">
            <Share2 className="size-6 sm:size-7" />
          </span>
        </div>
      </div>
    </section>
  );
}
