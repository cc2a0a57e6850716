import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { useSignInMethods } from '../../../lib/sign-in-methods';
import { refusalMessage } from '../refusals';

/**
 * Above the sign-in and registration forms (docs/product.md#sign-in): the provider's button
 * and an "or" before the form, when the operator set single sign-on up; and why the last
 * sign-in at the provider was refused (`?sso=<reason>`).
 */
export function SingleSignOnOptions({ mode }: { mode: 'signIn' | 'signUp' }) {
  const { t } = useTranslation();
  const { data: methods } = useSignInMethods();
  const [params] = useSearchParams();
  const refusal = params.get('sso');
  const provider = methods?.singleSignOn;
  if (!refusal && !provider) return null;

  return (
    <div className="mb-5 flex flex-col gap-4">
      {refusal && <FormAlert>{t(refusalMessage(refusal))}</FormAlert>}
      {provider && (
        <>
          {/* A navigation, not a request: the provider's pages follow, then the callback. */}
          <a href="/api/auth/oidc/start" className={buttonClasses({ variant: 'secondary', fullWidth: true })}>
            {t(mode === 'signIn' ? 'auth.singleSignOn.signIn' : 'auth.singleSignOn.signUp', { label: provider.label })}
          </a>
          {methods.passwordSignIn === 'admins-only' ? (
            <p className="text-sm text-ink-muted">{t('auth.singleSignOn.operatorsOnly')}</p>
          ) : (
            mode === 'signIn' && (
              <p className="text-sm text-ink-muted">{t('auth.singleSignOn.noPasswordHint', { label: provider.label })}</p>
            )
          )}
          <div role="separator" aria-label={t('auth.singleSignOn.or')} className="flex items-center gap-3 text-xs text-ink-muted">
            <span aria-hidden="true" className="h-px flex-1 bg-line" />
            <span aria-hidden="true">{t('auth.singleSignOn.or')}</span>
            <span aria-hidden="true" className="h-px flex-1 bg-line" />
          </div>
        </>
      )}
    </div>
  );
}
