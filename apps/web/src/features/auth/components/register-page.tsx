import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { AuthCard } from './auth-card';
import { RegisterForm } from './register-form';

/** `singleSignOn`: the provider's button above the form, from its feature (app/routes/register-route.tsx). */
export function RegisterPage({ singleSignOn }: { singleSignOn?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle title={t('auth.register.pageTitle')} />
      <AuthCard
        title={t('auth.register.title')}
        subtitle={t('auth.register.subtitle')}
        footer={
          <>
            {t('auth.register.haveAccount')}{' '}
            <Link
              to="/login"
              className="focus-ring rounded-sm font-semibold text-brand-600 hover:text-brand-700 dark:text-brand-400 dark:hover:text-brand-300"
            >
              {t('auth.register.signIn')}
            </Link>
          </>
        }
      >
        {singleSignOn}
        <RegisterForm />
      </AuthCard>
    </>
  );
}
