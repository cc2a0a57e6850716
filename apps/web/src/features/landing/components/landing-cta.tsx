import { ArrowRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cn } from '../../../lib/cn';
import { buttonClasses } from '../../../components/ui/button';

export function LandingCta() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="cta-title" className="px-4 pb-20 sm:px-8 sm:pb-24">
      <div className="relative isolate mx-auto max-w-5xl overflow-hidden rounded-[1.5rem] bg-gradient-to-br from-brand-600 to-brand-800 px-6 py-14 text-center shadow-xl shadow-brand-900/20 sm:px-12 sm:py-16">
        <div aria-hidden="true" className="absolute -right-24 -top-24 -z-10 size-72 rounded-full bg-white/10 blur-2xl" />
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
          {t('landing.cta.title')}
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-base leading-relaxed text-brand-100 sm:text-lg">{t('landing.cta.subtitle')}</p>
        <Link to="/register" className={cn(buttonClasses({ size: 'lg', variant: 'inverse' }), 'mt-8')}>
          {t('landing.cta.button')}
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
    </section>
  );
}
