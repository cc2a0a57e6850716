import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { LandingCta } from './landing-cta';
import { LandingFeatures } from './landing-features';
import { LandingHero } from './landing-hero';
import { LandingPricing } from './landing-pricing';

export function LandingPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle title={t('landing.pageTitle')} />
      <LandingHero />
      <LandingFeatures />
      <LandingPricing />
      <LandingCta />
    </>
  );
}
