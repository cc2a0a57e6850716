import { PASSKEY_NAME_MAX_LENGTH } from '@cloudvault/contract/passkey-limits';
import type { Passkey } from '@cloudvault/contract/passkeys';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { Fingerprint, KeyRound, Plus } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useAddPasskey, usePasskeys } from '../api/passkeys';
import { passkeyFailure, reachedByName } from '../passkey-failure';
import { RemovePasskeyModal } from './remove-passkey-modal';
import { RenamePasskeyModal } from './rename-passkey-modal';

/**
 * Settings › Passkeys (docs/api.md#passkeys): add passkeys under a name, see when each was
 * added and last used, rename and remove them. The server refuses removing the account's
 * last way to sign in; its reason is shown as it says it.
 */
export function PasskeysSection() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const list = usePasskeys();
  const add = useAddPasskey();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [addError, setAddError] = useState<string | undefined>();
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const onAdd = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (add.isPending) return;
    setAddError(undefined);
    const trimmed = name.trim();
    if (!trimmed) return setNameError(t('passkeys.nameRequired'));
    if (trimmed.length > PASSKEY_NAME_MAX_LENGTH) return setNameError(t('passkeys.nameTooLong', { max: PASSKEY_NAME_MAX_LENGTH }));
    if (!browserSupportsWebAuthn()) return setAddError(t('passkeys.unsupported'));
    if (!reachedByName(window.location.hostname)) return setAddError(t('passkeys.wrongAddress'));
    try {
      const added = await add.mutateAsync(trimmed);
      setName('');
      notify.success('passkeys.added', { values: { name: added.name } });
    } catch (error) {
      const failure = passkeyFailure(error);
      if (failure === 'server') setAddError(serverErrorMessage(error) ?? t('passkeys.failed'));
      else setAddError(t(`passkeys.${failure}`));
    }
  };

  return (
    <section id="passkeys" aria-labelledby={`${id}-title`} className="scroll-mt-24 rounded-card border border-line bg-surface shadow-card">
      <div className="flex items-start gap-3 border-b border-line px-5 py-4 sm:px-6">
        <span className="grid size-9 shrink-0 place-items-center rounded-control bg-brand-50 text-brand-700 dark:bg-brand-950 dark:text-brand-300">
          <Fingerprint aria-hidden="true" className="size-5" />
        </span>
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="text-base font-semibold text-ink">
            {t('passkeys.title')}
          </h2>
          <p className="mt-0.5 text-sm text-ink-muted">{t('passkeys.description')}</p>
        </div>
      </div>
      <div className="divide-y divide-line px-5 sm:px-6">
        <form noValidate onSubmit={(event) => void onAdd(event)} className="flex flex-col gap-3 py-4">
          {addError && <FormAlert>{addError}</FormAlert>}
          <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
            <TextField
              ref={nameRef}
              className="flex-1"
              label={t('passkeys.nameLabel')}
              hint={t('passkeys.nameHint')}
              placeholder={t('passkeys.namePlaceholder')}
              name="passkey-name"
              autoComplete="off"
              maxLength={PASSKEY_NAME_MAX_LENGTH + 20}
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                setNameError(undefined);
              }}
              error={nameError}
            />
            <Button type="submit" loading={add.isPending} className="w-full sm:mt-7 sm:w-auto">
              <Plus aria-hidden="true" className="size-4" />
              {t('passkeys.add')}
            </Button>
          </div>
        </form>

        <div className="py-4">
          <h3 id={`${id}-list`} className="text-sm font-medium text-ink">
            {t('passkeys.listTitle')}
          </h3>
          {list.isPending ? (
            <div className="py-4">
              <Spinner label={t('passkeys.loading')} />
            </div>
          ) : list.isError ? (
            <div className="mt-3 flex flex-col items-start gap-3">
              <FormAlert>{t('passkeys.loadFailed')}</FormAlert>
              <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
                {t('passkeys.retry')}
              </Button>
            </div>
          ) : list.data.length === 0 ? (
            <p className="mt-1 text-sm text-ink-muted">{t('passkeys.empty')}</p>
          ) : (
            <ul aria-labelledby={`${id}-list`} className="mt-2 divide-y divide-line">
              {list.data.map((passkey) => (
                <li key={passkey.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
                  <div className="flex min-w-0 items-start gap-3">
                    <KeyRound aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-ink-subtle" />
                    <div className="min-w-0">
                      <p className="flex flex-wrap items-center gap-2 font-medium break-words text-ink">
                        {passkey.name}
                        {passkey.backedUp && <Badge>{t('passkeys.synced')}</Badge>}
                      </p>
                      <p className="text-sm text-ink-muted">
                        {t('passkeys.createdAt', { date: when(passkey.createdAt) })}
                        {' · '}
                        {passkey.lastUsedAt ? t('passkeys.lastUsed', { date: when(passkey.lastUsedAt) }) : t('passkeys.neverUsed')}
                      </p>
                    </div>
                  </div>
                  <div className="flex shrink-0 gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      className="flex-1 sm:flex-none"
                      aria-label={t('passkeys.rename.label', { name: passkey.name })}
                      onClick={() => setRenaming(passkey)}
                    >
                      {t('passkeys.rename.button')}
                    </Button>
                    <Button
                      variant="secondary"
                      size="sm"
                      className="flex-1 sm:flex-none"
                      aria-label={t('passkeys.remove.label', { name: passkey.name })}
                      onClick={() => setRemoving(passkey)}
                    >
                      {t('passkeys.remove.button')}
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      <RenamePasskeyModal passkey={renaming} onClose={() => setRenaming(null)} />
      <RemovePasskeyModal
        passkey={removing}
        onClose={() => setRemoving(null)}
        onRemoved={() => {
          setRemoving(null);
          // Its row and button are gone: focus goes back to where passkeys are added.
          nameRef.current?.focus();
        }}
      />
    </section>
  );
}
