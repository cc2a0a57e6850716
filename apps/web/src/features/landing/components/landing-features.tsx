import { ShieldCheck, Share2, Zap, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';

const FEATURES: Array<{ key: 'secure' | 'fast' | 'sharing'; icon: LucideIcon }> = [
  { key: 'secure', icon: ShieldCheck },
  { key: 'fast', icon: Zap },
  { key: 'sharing', icon: Share2 },
];

export function LandingFeatures() {
  const { t } = useTranslation();
  return (
    <section id="features" aria-labelledby="features-title" className="scroll-mt-20 border-y border-line bg-surface">
      <div className="mx-auto max-w-6xl px-4 py-20 sm:px-8 sm:py-24">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="features-title" className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">
            {t('landing.features.title')}
          </h2>
          <p className="mt-4 text-base leading-relaxed text-ink-muted sm:text-lg">{t('landing.features.subtitle')}</p>
        </div>
        <ul className="mt-14 grid gap-6 md:grid-cols-3">
          {FEATURES.map(({ key, icon: Icon }) => (
            <li key={key} className="rounded-card border border-line bg-canvas p-7">
              <span className="grid size-12 place-items-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-950 dark:text-brand-300">
                <Icon aria-hidden="true" className="size-6" />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-ink">{t(`landing.features.${key}.title`)}</h3>
              <p className="mt-2 text-[0.9375rem] leading-relaxed text-ink-muted">{t(`landing.features.${key}.description`)}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
