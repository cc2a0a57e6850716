import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { LinkRole, Share, UpdateShareBody } from '@cloudvault/contract/shares';
import { PASSWORD_MIN_LENGTH } from '@cloudvault/contract/validation';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/password-field';
import { SelectField } from '../../../components/ui/select-field';
import { notify } from '../../../lib/notify';
import { useUpdateShare } from '../api/update-share';
import { expiryChoices, lifetimeUnit, linkPasswordTooShort, type LinkOptions } from '../link-options';
import { parseDownloadLimit, takesMessage } from '../share-roles';
import { LinkRoleFields } from './link-role-fields';

const KEEP = 'keep';

interface LinkEditFormProps {
  share: Share;
  kind: 'file' | 'folder';
  options: LinkOptions;
  /** Saved or cancelled. */
  onDone: () => void;
}

/**
 * A link's settings changed in place (PATCH /api/shares/:id): its role, download limit and
 * message, and on plans with them a new lifetime from now and its password. Only what was
 * changed is sent; the link keeps its address.
 */
export function LinkEditForm({ share, kind, options, onDone }: LinkEditFormProps) {
  const { t } = useTranslation();
  const update = useUpdateShare();
  const initialRole = share.role as LinkRole;
  const initialLimit = share.downloadLimit === null ? '' : String(share.downloadLimit);
  const [role, setRole] = useState<LinkRole>(initialRole);
  const [limit, setLimit] = useState(initialLimit);
  const [limitError, setLimitError] = useState<string | undefined>();
  const [message, setMessage] = useState(share.message ?? '');
  const [expiry, setExpiry] = useState<string>(KEEP);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [removePassword, setRemovePassword] = useState(false);
  const removeId = useId();

  const lifetime = (hours: number) => {
    const { unit, count } = lifetimeUnit(hours);
    return unit === 'days' ? t('dashboard.share.expiryDays', { count }) : t('dashboard.share.expiryHours', { count });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const downloadLimit = parseDownloadLimit(limit);
    if (downloadLimit === undefined) return setLimitError(t('dashboard.share.downloadLimitInvalid'));
    if (options.extras && !removePassword && linkPasswordTooShort(password)) {
      return setPasswordError(t('dashboard.share.passwordTooShort', { min: PASSWORD_MIN_LENGTH }));
    }
    const body: UpdateShareBody = {};
    if (role !== initialRole) body.role = role;
    if (limit.trim() !== initialLimit) body.downloadLimit = downloadLimit;
    if (takesMessage(role) && message.trim() !== (share.message ?? '')) body.message = message.trim() || null;
    if (options.extras && expiry !== KEEP) body.expiresAt = new Date(Date.now() + Number(expiry) * 3_600_000).toISOString();
    if (options.extras && removePassword) body.password = null;
    else if (options.extras && password) body.password = password;
    if (Object.keys(body).length === 0) return onDone();
    update.mutate(
      { id: share.id, body },
      {
        onSuccess: () => {
          notify.success('dashboard.share.linkSaved');
          onDone();
        },
        onError: (error) => notify.error('dashboard.share.updateFailed', { error }),
      },
    );
  };

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label={t('dashboard.share.linkSettings')}
      className="flex flex-col gap-3 rounded-control bg-surface-muted/60 p-3"
    >
      <LinkRoleFields
        kind={kind}
        role={role}
        onRoleChange={setRole}
        limit={limit}
        onLimitChange={(value) => {
          setLimit(value);
          setLimitError(undefined);
        }}
        limitError={limitError}
        message={message}
        onMessageChange={setMessage}
      />
      {options.extras && (
        <>
          <SelectField
            label={t('dashboard.share.expiry')}
            value={expiry}
            options={[
              { value: KEEP, label: t('dashboard.share.expiryKeep') },
              ...expiryChoices(options.maxHours).map((hours) => ({ value: String(hours), label: lifetime(hours) })),
            ]}
            onChange={setExpiry}
          />
          {!removePassword && (
            <PasswordField
              label={t('dashboard.share.passwordNew')}
              hint={share.passwordProtected ? t('dashboard.share.passwordKeepHint') : t('dashboard.share.passwordHint')}
              autoComplete="new-password"
              maxLength={128}
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
                setPasswordError(undefined);
              }}
              error={passwordError}
            />
          )}
          {share.passwordProtected && (
            <label htmlFor={removeId} className="flex cursor-pointer items-center gap-2 text-sm text-ink">
              <input
                id={removeId}
                type="checkbox"
                checked={removePassword}
                onChange={(event) => setRemovePassword(event.target.checked)}
                className="size-4 accent-brand-600"
              />
              {t('dashboard.share.passwordRemove')}
            </label>
          )}
        </>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={onDone} disabled={update.isPending}>
          {t('ui.cancel')}
        </Button>
        <Button type="submit" size="sm" loading={update.isPending}>
          {t('dashboard.share.saveLink')}
        </Button>
      </div>
    </form>
  );
}
