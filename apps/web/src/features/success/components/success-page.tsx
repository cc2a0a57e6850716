import { CircleCheckBig, TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { CheckList } from '../../../components/ui/check-list';
import { PageTitle } from '../../../components/ui/page-title';
import { Spinner } from '../../../components/ui/spinner';
import { useInvalidatePlanData } from '../../../hooks/use-invalidate-plan-data';
import { usePlans } from '../../../hooks/use-plans';
import { notify } from '../../../lib/notify';
import { useCheckoutResult } from '../api/get-checkout-result';
import { receiptOf, welcomePlanName } from '../receipt';
import { PaymentReceipt } from './payment-receipt';
import { SubscriptionDetails } from './subscription-details';

/** docs/product.md#success: how long the "redirecting" notice stays before going to the dashboard. */
const REDIRECT_DELAY_MS = 1000;

/** Where the payment provider returns after checkout (`?session_id=…`). */
export function SuccessPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const sessionId = searchParams.get('session_id');
  return (
    <>
      <PageTitle title={t('success.pageTitle')} />
      {sessionId ? <CheckoutResult sessionId={sessionId} /> : <RedirectToDashboard />}
    </>
  );
}

function RedirectToDashboard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    const timer = window.setTimeout(() => void navigate('/dashboard', { replace: true }), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [navigate]);

  return (
    <div className="flex flex-col items-center justify-center gap-4 py-24 text-center">
      <Spinner className="size-7 text-brand-600 dark:text-brand-400" />
      <h1 className="text-lg font-medium text-ink-muted">{t('success.redirecting')}</h1>
    </div>
  );
}

function CheckoutResult({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation();
  const result = useCheckoutResult(sessionId);
  const plans = usePlans();
  const invalidatePlanData = useInvalidatePlanData();

  // The plan changed on the server: the user, the dashboard's storage and the upload limits are read again.
  useEffect(() => {
    if (result.data) void invalidatePlanData();
  }, [result.data, invalidatePlanData]);

  useEffect(() => {
    if (result.isError) notify.error('success.loadFailed', { once: true });
  }, [result.isError]);

  const actions = (
    <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-center">
      <Link to="/subscription" className={buttonClasses({ variant: 'secondary', size: 'lg' })}>
        {t('success.manage')}
      </Link>
      <Link to="/dashboard" className={buttonClasses({ size: 'lg' })}>
        {t('success.continue')}
      </Link>
    </div>
  );

  if (result.isPending) {
    return (
      <div role="status" className="flex flex-col items-center justify-center gap-4 py-24 text-center">
        <Spinner className="size-7 text-brand-600 dark:text-brand-400" />
        <p className="text-lg font-medium text-ink-muted">{t('success.confirming')}</p>
      </div>
    );
  }

  if (result.isError) {
    return (
      <div className="mx-auto flex max-w-lg flex-col items-center gap-4 py-16 text-center">
        <TriangleAlert aria-hidden="true" className="size-8 text-danger" />
        <h1 className="text-xl font-semibold text-ink">{t('success.loadFailed')}</h1>
        <p className="text-sm text-ink-muted">{t('success.loadFailedHint')}</p>
        <div className="mt-2">{actions}</div>
      </div>
    );
  }

  const data = result.data;
  const planName = welcomePlanName(data.planDetails) ?? t('success.fallbackPlan');
  const receipt = receiptOf(data.billingHistory);
  const features = plans.data?.find((plan) => plan.id === data.plan)?.features ?? [];

  return (
    <div className="mx-auto w-full max-w-3xl">
      <div className="flex flex-col items-center text-center">
        <span className="grid size-16 place-items-center rounded-full bg-green-50 text-green-600 ring-8 ring-green-50/60 dark:bg-green-500/10 dark:text-green-400 dark:ring-green-500/5">
          <CircleCheckBig aria-hidden="true" className="size-8" />
        </span>
        <h1 className="mt-6 text-3xl font-bold tracking-tight text-ink sm:text-4xl">{t('success.title', { plan: planName })}</h1>
        <p className="mt-3 max-w-xl text-ink-muted">{t('success.subtitle')}</p>
      </div>
      <div className="mt-10 grid gap-6 md:grid-cols-2">
        <SubscriptionDetails result={data} planName={planName} />
        {receipt && <PaymentReceipt receipt={receipt} />}
      </div>
      {features.length > 0 && (
        <section aria-labelledby="included-title" className="mt-6 rounded-card border border-line bg-surface p-5 shadow-card sm:p-6">
          <h2 id="included-title" className="font-semibold text-ink">
            {t('success.included')}
          </h2>
          <CheckList items={features} label={t('success.included')} columns className="mt-4" />
        </section>
      )}
      <div className="mt-10">{actions}</div>
    </div>
  );
}
