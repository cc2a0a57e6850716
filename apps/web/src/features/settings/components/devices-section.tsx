import { APP_PASSWORD_NAME_MAX_LENGTH } from '@cloudvault/contract/app-password-limits';
import type { AppPassword, CreatedAppPasswordResponse } from '@cloudvault/contract/app-passwords';
import { KeyRound, MonitorSmartphone, Plus } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { useSession } from '../../../hooks/use-session';
import { useAppPasswords } from '../api/app-passwords';
import { AppPasswordCreatedModal } from './app-password-created-modal';
import { CreateAppPasswordModal } from './create-app-password-modal';
import { RevokeAppPasswordModal } from './revoke-app-password-modal';
import { SettingsSection } from './settings-section';

/**
 * Devices and app passwords (docs/api.md#app-passwords-and-webdav): WebDAV clients sign in
 * with the account's e-mail and an app password made here, one per device, each revocable.
 */
export function DevicesSection() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const { user } = useSession();
  const list = useAppPasswords();
  const [name, setName] = useState('');
  // The name being confirmed with the account password; null while that dialog is closed.
  const [confirming, setConfirming] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | undefined>();
  const [created, setCreated] = useState<CreatedAppPasswordResponse | null>(null);
  const [revoking, setRevoking] = useState<AppPassword | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const createRef = useRef<HTMLButtonElement>(null);
  const webDavUrl = `${window.location.origin}/dav/`;
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const onCreate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setNameError(t('appPasswords.nameRequired'));
    if (trimmed.length > APP_PASSWORD_NAME_MAX_LENGTH)
      return setNameError(t('appPasswords.nameTooLong', { max: APP_PASSWORD_NAME_MAX_LENGTH }));
    setConfirming(trimmed);
  };

  const onConfirmed = (answer: CreatedAppPasswordResponse) => {
    setConfirming(null);
    setName('');
    setCreated(answer);
  };

  // Where focus goes once a dialog has closed: the created dialog opens as the confirming
  // one closes, so it has no opener of its own, and a revoked row's button is gone. Run
  // after the dialog's own focus return (effects of a parent follow the child's clean-up).
  const returnFocusTo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (confirming !== null || created !== null || revoking !== null || !returnFocusTo.current) return;
    returnFocusTo.current.focus();
    returnFocusTo.current = null;
  }, [confirming, created, revoking]);

  const onCreatedClosed = () => {
    returnFocusTo.current = createRef.current;
    setCreated(null);
  };

  const onRevoked = () => {
    returnFocusTo.current = nameRef.current;
    setRevoking(null);
  };

  return (
    <SettingsSection id="devices" icon={MonitorSmartphone} title={t('appPasswords.title')} description={t('appPasswords.description')}>
      <div className="flex flex-col gap-4 py-4">
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-ink-muted">{t('appPasswords.serverUrl')}</dt>
          <dd className="font-mono break-all text-ink">{webDavUrl}</dd>
          <dt className="text-ink-muted">{t('appPasswords.userName')}</dt>
          <dd className="font-mono break-all text-ink">{user?.email}</dd>
        </dl>
        <form noValidate onSubmit={onCreate} className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <TextField
            ref={nameRef}
            className="flex-1"
            label={t('appPasswords.nameLabel')}
            hint={t('appPasswords.nameHint')}
            placeholder={t('appPasswords.namePlaceholder')}
            name="app-password-name"
            autoComplete="off"
            maxLength={APP_PASSWORD_NAME_MAX_LENGTH + 20}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setNameError(undefined);
            }}
            error={nameError}
          />
          <Button ref={createRef} type="submit" className="w-full sm:mt-7 sm:w-auto">
            <Plus aria-hidden="true" className="size-4" />
            {t('appPasswords.create')}
          </Button>
        </form>
      </div>

      <div className="py-4">
        <h3 id={`${id}-list`} className="text-sm font-medium text-ink">
          {t('appPasswords.listTitle')}
        </h3>
        {list.isPending ? (
          <div className="py-4">
            <Spinner label={t('appPasswords.loading')} />
          </div>
        ) : list.isError ? (
          <div className="mt-3 flex flex-col items-start gap-3">
            <FormAlert>{t('appPasswords.loadFailed')}</FormAlert>
            <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
              {t('appPasswords.retry')}
            </Button>
          </div>
        ) : list.data.length === 0 ? (
          <p className="mt-1 text-sm text-ink-muted">{t('appPasswords.empty')}</p>
        ) : (
          <ul aria-labelledby={`${id}-list`} className="mt-2 divide-y divide-line">
            {list.data.map((entry) => (
              <li key={entry.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
                <div className="flex min-w-0 items-start gap-3">
                  <KeyRound aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-ink-subtle" />
                  <div className="min-w-0">
                    <p className="font-medium break-words text-ink">{entry.name}</p>
                    <p className="text-sm text-ink-muted">
                      {t('appPasswords.createdAt', { date: when(entry.createdAt) })}
                      {' · '}
                      {entry.lastUsedAt ? t('appPasswords.lastUsed', { date: when(entry.lastUsedAt) }) : t('appPasswords.neverUsed')}
                    </p>
                  </div>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  className="w-full shrink-0 sm:w-auto"
                  aria-label={t('appPasswords.revokeLabel', { name: entry.name })}
                  onClick={() => setRevoking(entry)}
                >
                  {t('appPasswords.revoke.button')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>

      <CreateAppPasswordModal
        name={confirming}
        twoFactorEnabled={user?.twoFactorEnabled ?? false}
        onClose={() => setConfirming(null)}
        onCreated={onConfirmed}
      />
      <AppPasswordCreatedModal created={created} webDavUrl={webDavUrl} userName={user?.email ?? ''} onClose={onCreatedClosed} />
      <RevokeAppPasswordModal appPassword={revoking} onClose={() => setRevoking(null)} onRevoked={onRevoked} />
    </SettingsSection>
  );
}
