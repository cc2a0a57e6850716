import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';

/** The closing call to action: an account for visitors, the subscription page for users. */
export function PricingCta({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const texts = signedIn
    ? {
        title: t('pricing.closing.memberTitle'),
        subtitle: t('pricing.closing.memberSubtitle'),
        button: t('pricing.closing.memberButton'),
        to: '/subscription',
      }
    : {
        title: t('pricing.closing.visitorTitle'),
        subtitle: t('pricing.closing.visitorSubtitle'),
        button: t('pricing.closing.visitorButton'),
        to: '/register',
      };

  return (
    <section
      aria-labelledby="pricing-cta-title"
      className="mt-20 rounded-card bg-gradient-to-br from-brand-600 to-brand-800 px-6 py-12 text-center shadow-card sm:px-12"
    >
      <h2 id="pricing-cta-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
        {texts.title}
      </h2>
      <p className="mx-auto mt-3 max-w-xl text-brand-100">{texts.subtitle}</p>
      <Link to={texts.to} className={cn(buttonClasses({ variant: 'inverse', size: 'lg' }), 'mt-8')}>
        {texts.button}
      </Link>
    </section>
  );
}
