import { useTranslation } from 'react-i18next';

const QUESTIONS = ['change', 'downgrade', 'refund', 'free'] as const;

/** The four FAQ statements of docs/product.md#faq, always open (nothing to click to read them). */
export function PricingFaq() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="faq-title" className="mx-auto mt-20 w-full max-w-4xl">
      <h2 id="faq-title" className="text-center text-2xl font-bold tracking-tight text-ink sm:text-3xl">
        {t('pricing.faq.title')}
      </h2>
      <dl className="mt-10 grid gap-x-10 gap-y-8 md:grid-cols-2">
        {QUESTIONS.map((question) => (
          <div key={question}>
            <dt className="font-semibold text-ink">{t(`pricing.faq.${question}Question`)}</dt>
            <dd className="mt-2 text-sm leading-relaxed text-ink-muted">{t(`pricing.faq.${question}Answer`)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
