import { CircleCheck, CircleX } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { PageTitle } from '../../../components/ui/page-title';
import { Spinner } from '../../../components/ui/spinner';
import { useSession } from '../../../hooks/use-session';
import { serverErrorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { notify } from '../../../lib/notify';
import { useResendVerification, useVerifyEmail } from '../api/verify-email';

type Outcome = { state: 'verifying' } | { state: 'verified' } | { state: 'failed'; message: string };

/** Where the verification mail's link leads: verifies on arrival, signed in or not. */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { status } = useSession();
  const verify = useVerifyEmail();
  const resend = useResendVerification();
  const [outcome, setOutcome] = useState<Outcome>(() =>
    token ? { state: 'verifying' } : { state: 'failed', message: t('auth.verifyEmail.missingToken') },
  );
  // A link works once: the request leaves once per token, even when effects run twice.
  const sentFor = useRef<string | null>(null);
  const { mutateAsync } = verify;

  useEffect(() => {
    if (!token || sentFor.current === token) return;
    sentFor.current = token;
    mutateAsync({ token }).then(
      () => setOutcome({ state: 'verified' }),
      (error: unknown) => setOutcome({ state: 'failed', message: serverErrorMessage(error) ?? t('auth.verifyEmail.failed') }),
    );
  }, [token, mutateAsync, t]);

  const onResend = async () => {
    try {
      await resend.mutateAsync();
      notify.success('auth.verifyEmail.resent');
    } catch (error) {
      notify.error('auth.verifyBanner.failed', { error });
    }
  };

  const signedIn = status === 'signedIn';
  const next = signedIn
    ? { to: '/dashboard', label: t('auth.verifyEmail.toDashboard') }
    : { to: '/login', label: t('auth.verifyEmail.toSignIn') };

  return (
    <>
      <PageTitle title={t('auth.verifyEmail.pageTitle')} />
      <div className="rounded-card border border-line bg-surface px-5 py-9 text-center shadow-card sm:px-8">
        {outcome.state === 'verifying' && (
          <div role="status" className="flex flex-col items-center gap-4">
            <Spinner className="size-8 text-brand-600 dark:text-brand-400" />
            <p className="text-sm text-ink-muted">{t('auth.verifyEmail.verifying')}</p>
          </div>
        )}
        {outcome.state === 'verified' && (
          <div role="status" className="flex flex-col items-center gap-3">
            <CircleCheck aria-hidden="true" className="size-10 text-success" />
            <h1 className="text-2xl font-bold tracking-tight text-ink">{t('auth.verifyEmail.verifiedTitle')}</h1>
            <p className="text-sm text-ink-muted">{t('auth.verifyEmail.verifiedText')}</p>
            <Link to={next.to} className={cn(buttonClasses({ size: 'lg', fullWidth: true }), 'mt-4')}>
              {next.label}
            </Link>
          </div>
        )}
        {outcome.state === 'failed' && (
          <div role="alert" className="flex flex-col items-center gap-3">
            <CircleX aria-hidden="true" className="size-10 text-danger" />
            <h1 className="text-2xl font-bold tracking-tight text-ink">{t('auth.verifyEmail.failedTitle')}</h1>
            <p className="text-sm text-ink-muted">{outcome.message}</p>
            <div className="mt-4 flex w-full flex-col gap-3">
              {signedIn && (
                <Button size="lg" fullWidth loading={resend.isPending} onClick={() => void onResend()}>
                  {t('auth.verifyEmail.resend')}
                </Button>
              )}
              <Link to={next.to} className={buttonClasses({ variant: signedIn ? 'secondary' : 'primary', size: 'lg', fullWidth: true })}>
                {next.label}
              </Link>
            </div>
          </div>
        )}
      </div>
    </>
  );
}
