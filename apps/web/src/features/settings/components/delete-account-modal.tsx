import { TriangleAlert } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { PasswordField } from '../../../components/ui/password-field';
import { ProviderConfirmation } from '../../../components/ui/provider-confirmation';
import { useProviderConfirmation } from '../../../hooks/use-provider-confirmation';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorMessage } from '../../../lib/api-client';
import { useDeleteAccount } from '../api/account-data';
import { isPasswordProblem } from '../reauth-errors';
import { notify } from '../../../lib/notify';

/** The word to type, in every language: it is what the user types, not what they read. */
const CONFIRMATION = 'DELETE';
const DELETED_ITEMS = ['files', 'settings', 'billing', 'shares'] as const;

/**
 * Delete Account (docs/product.md#settings): Confirm only once the text is exactly DELETE and
 * the account's password is given (re-authentication, docs/api.md#email-verification: a session alone is not enough).
 */
export function DeleteAccountModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const deleteAccount = useDeleteAccount();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  // An account without a password confirms at the single sign-on provider instead.
  const provider = useProviderConfirmation();
  const ready = text === CONFIRMATION && (password !== '' || provider !== null);

  const close = () => {
    setText('');
    setError(undefined);
    setPassword('');
    setPasswordError(undefined);
    onClose();
  };

  /** What is still missing, said under its field. */
  const explain = () => {
    if (text !== CONFIRMATION) setError(t('settings.deleteAccount.typeDelete', { word: CONFIRMATION }));
    if (!password && !provider) setPasswordError(t('settings.reauth.passwordRequired'));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (deleteAccount.isPending) return;
    if (!ready) return explain();
    try {
      await deleteAccount.mutateAsync(password);
      notify.success('settings.deleteAccount.deleted');
      void navigate('/', { replace: true });
    } catch (caught) {
      // A wrong password is said in the dialog, where it can be typed again.
      if (isPasswordProblem(caught)) setPasswordError(serverErrorMessage(caught) ?? t('settings.deleteAccount.failed'));
      else notify.error('settings.deleteAccount.failed');
    }
  };

  return (
    <Modal
      open={open}
      onClose={close}
      busy={deleteAccount.isPending}
      title={t('settings.deleteAccount.title')}
      description={t('settings.deleteAccount.description')}
      icon={
        <span className="grid size-10 place-items-center rounded-full bg-danger-soft text-danger">
          <TriangleAlert aria-hidden="true" className="size-5" />
        </span>
      }
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={deleteAccount.isPending}>
            {t('ui.cancel')}
          </Button>
          <Button type="submit" form="delete-account" variant="danger" disabled={!ready} loading={deleteAccount.isPending}>
            {t('settings.deleteAccount.confirm')}
          </Button>
        </>
      }
    >
      <form
        id="delete-account"
        noValidate
        onSubmit={onSubmit}
        onKeyDown={(event) => {
          // Enter cannot submit while Confirm is disabled (HTML's implicit submission), so say why.
          if (event.key === 'Enter' && event.target instanceof HTMLInputElement && !ready) {
            event.preventDefault();
            explain();
          }
        }}
        className="flex flex-col gap-4"
      >
        <div className="text-sm text-ink">
          <p className="font-medium">{t('settings.deleteAccount.listTitle')}</p>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-ink-muted">
            {DELETED_ITEMS.map((item) => (
              <li key={item}>{t(`settings.deleteAccount.items.${item}`)}</li>
            ))}
          </ul>
        </div>
        <TextField
          label={t('settings.deleteAccount.typeLabel', { word: CONFIRMATION })}
          name="confirmation"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setError(undefined);
          }}
          error={error}
        />
        {provider ? (
          <ProviderConfirmation label={provider.label} error={passwordError} />
        ) : (
          <PasswordField
            label={t('settings.reauth.password')}
            hint={t('settings.reauth.passwordHint')}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setPasswordError(undefined);
            }}
            error={passwordError}
          />
        )}
      </form>
    </Modal>
  );
}
