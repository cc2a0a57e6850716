import { Mail } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { User } from '@cloudvault/contract/accounts';
import { Button } from '../../../components/ui/button';
import { notify } from '../../../lib/notify';
import { useResendVerification } from '../api/verify-email';

/**
 * A quiet strip under the header of every signed-in page until the address is verified:
 * everything else works, only folders shared with the address wait for it.
 */
export function VerifyEmailBanner({ user }: { user: User }) {
  const { t } = useTranslation();
  const resend = useResendVerification();
  if (user.emailVerified) return null;

  const onResend = async () => {
    try {
      await resend.mutateAsync();
      notify.success('auth.verifyBanner.sent', { values: { email: user.email } });
    } catch (error) {
      // 429 after 5 an hour: the server's text says how long to wait.
      notify.error('auth.verifyBanner.failed', { error });
    }
  };

  return (
    // Unnamed on purpose: a landmark named "…e-mail" would answer every label query for "E-mail" on the page.
    <aside className="border-b border-line bg-brand-50/70 dark:bg-brand-950/40">
      {/* On a phone the hint takes a line of its own under the title and the button. */}
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 sm:px-6 sm:py-2.5 lg:px-8">
        <Mail aria-hidden="true" className="size-4 shrink-0 text-brand-600 dark:text-brand-400" />
        <p className="text-sm font-semibold text-ink">{t('auth.verifyBanner.title')}</p>
        <p className="order-last min-w-0 basis-full pl-7 text-xs break-words text-ink-muted sm:order-none sm:flex-1 sm:basis-0 sm:pl-0 sm:text-sm">
          {t('auth.verifyBanner.hint', { email: user.email })}
        </p>
        <Button variant="secondary" size="sm" loading={resend.isPending} onClick={() => void onResend()} className="ml-auto shrink-0">
          {t('auth.verifyBanner.resend')}
        </Button>
      </div>
    </aside>
  );
}
