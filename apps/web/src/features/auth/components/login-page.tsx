import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import type { PasskeySlot } from '../passkey-slot';
import { AuthCard } from './auth-card';
import { LoginForm } from './login-form';

/** `singleSignOn`: the provider's button above the form, from its feature (app/routes/login-route.tsx). */
export function LoginPage({ passkeys, singleSignOn }: { passkeys: PasskeySlot; singleSignOn?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle title={t('auth.login.pageTitle')} />
      <AuthCard
        title={t('auth.login.title')}
        subtitle={t('auth.login.subtitle')}
        footer={
          <>
            {t('auth.login.noAccount')}{' '}
            <Link
              to="/register"
              className="focus-ring rounded-sm font-semibold text-brand-600 hover:text-brand-700 dark:text-brand-400 dark:hover:text-brand-300"
            >
              {t('auth.login.signUp')}
            </Link>
          </>
        }
      >
        {singleSignOn}
        <LoginForm passkeys={passkeys} />
        <passkeys.SignInButton />
      </AuthCard>
    </>
  );
}
