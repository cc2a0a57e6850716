import { useQueryClient } from '@tanstack/react-query';
import { Globe, UserRound } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { LinkRole, PrivateRole } from '@cloudvault/contract/shares';
import { PASSWORD_MIN_LENGTH } from '@cloudvault/contract/validation';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { notify } from '../../../lib/notify';
import { shareKeys } from '../../../lib/query-keys';
import { announceLink } from '../announce-link';
import { FILE_SHARE_HOURS, shareFile, shareFileWith, shareFolder, type LinkSettings } from '../api/create-share';
import { linkPasswordTooShort, type LinkOptions } from '../link-options';
import { PRIVATE_ROLE_CHOICES, parseDownloadLimit, takesMessage } from '../share-roles';
import type { ShareTarget } from '../share-item';
import { ExistingShares } from './existing-shares';
import { FolderActivityDetails } from './folder-activity';
import { LinkRoleFields } from './link-role-fields';
import { LinkSettingsFields } from './link-settings-fields';
import { PeopleWithAccess } from './people-with-access';
import { ShareModalIcon } from './share-modal-icon';

type ShareType = 'public' | 'private';

/**
 * 'Share File' and 'Share Folder', as the share dialogs people know: first a new share — a
 * person by e-mail with a role (Viewer or Editor), or a link with its role (view, view only,
 * file request, edit), download limit, and on plans with them its lifetime and password —
 * then the people with access (each role changed or removed in place) and the links (their
 * counts and settings, changed without changing the address). Closes after a new share's
 * attempt, whether it worked or not (docs/product.md#sharing).
 */
export function ShareItemModal({ item, options, onClose }: { item: ShareTarget | null; options: LinkOptions; onClose: () => void }) {
  return item ? <ShareItemForm key={`${item.kind}:${item.id}`} item={item} options={options} onClose={onClose} /> : null;
}

function ShareItemForm({ item, options, onClose }: { item: ShareTarget; options: LinkOptions; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isFile = item.kind === 'file';
  const [shareType, setShareType] = useState<ShareType>('public');
  const [email, setEmail] = useState('');
  const [personRole, setPersonRole] = useState<PrivateRole>('viewer');
  // A file link lasts a day unless changed; a folder link the longest the plan allows, as the server gives one sent without.
  const [expiresIn, setExpiresIn] = useState(isFile ? Math.min(FILE_SHARE_HOURS, options.maxHours) : options.maxHours);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [linkRole, setLinkRole] = useState<LinkRole>('view');
  const [limit, setLimit] = useState('');
  const [limitError, setLimitError] = useState<string | undefined>();
  const [message, setMessage] = useState('');
  const [pending, setPending] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const trimmed = email.trim();
  const formId = `share-${item.kind}-form`;

  const shareLink = async (downloadLimit: number | null) => {
    // Only what differs from the server's defaults is sent: a plain link is the body it always was.
    const settings: LinkSettings = {
      ...(options.extras ? { expiresIn, ...(password ? { password } : {}) } : {}),
      ...(linkRole === 'view' ? {} : { role: linkRole }),
      ...(downloadLimit === null ? {} : { downloadLimit }),
      ...(takesMessage(linkRole) && message.trim() ? { message: message.trim() } : {}),
    };
    const answer = isFile ? await shareFile(item.id, settings) : await shareFolder(item.id, { shareType: 'public', ...settings });
    const shareUrl = 'shareUrl' in answer ? answer.shareUrl : '';
    await announceLink(shareUrl, isFile ? 'dashboard.share.fileCopied' : 'dashboard.share.publicCopied');
  };

  const shareWithPerson = async () => {
    // A viewer share is sent as it always was; the server's default role is viewer.
    const role = personRole === 'viewer' ? undefined : personRole;
    if (isFile) await shareFileWith(item.id, trimmed, role);
    else await shareFolder(item.id, { shareType: 'private', email: trimmed, ...(role ? { role } : {}) });
    notify.success(isFile ? 'dashboard.share.fileSharedWith' : 'dashboard.share.sharedWith', { values: { email: trimmed } });
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    // An empty e-mail is ignored (docs/product.md#sharing).
    if (shareType === 'private' && !trimmed) {
      emailRef.current?.focus();
      return;
    }
    // Not an attempt yet: the dialog stays open to say why.
    if (shareType === 'public' && options.extras && linkPasswordTooShort(password)) {
      return setPasswordError(t('dashboard.share.passwordTooShort', { min: PASSWORD_MIN_LENGTH }));
    }
    const downloadLimit = parseDownloadLimit(limit);
    if (shareType === 'public' && downloadLimit === undefined) return setLimitError(t('dashboard.share.downloadLimitInvalid'));
    setPending(true);
    try {
      await (shareType === 'public' ? shareLink(downloadLimit ?? null) : shareWithPerson());
    } catch (error) {
      // The server's reason (a bad e-mail…), except for "no such route" while sharing
      // is not deployed: that is no reason a person can act on. A file's link failing says
      // product.md's 'Failed to create share link' alone: its catalogue prefers the server's
      // text only for 'Failed to share folder'.
      const preferred = !isFile || shareType === 'private';
      const reason = preferred && error instanceof ApiError && error.code !== 'ROUTE_NOT_FOUND' ? error : undefined;
      notify.error(isFile ? 'dashboard.share.fileFailed' : 'dashboard.share.folderFailed', { error: reason });
    } finally {
      // The next opening lists the new share with the others.
      void queryClient.invalidateQueries({ queryKey: shareKeys.mine });
      setPending(false);
      onClose();
    }
  };

  const option = (value: ShareType, Icon: typeof Globe, title: string, hint: string) => (
    <label
      className={cn(
        'flex cursor-pointer items-start gap-3 rounded-control border p-3 transition-colors',
        shareType === value
          ? 'border-brand-500 bg-brand-50/60 ring-1 ring-brand-500 dark:bg-brand-500/10'
          : 'border-line hover:bg-surface-muted',
      )}
    >
      <input
        type="radio"
        name="share-type"
        value={value}
        checked={shareType === value}
        onChange={() => setShareType(value)}
        className="mt-1 size-4 accent-brand-600"
      />
      <Icon aria-hidden="true" className="mt-0.5 size-4.5 shrink-0 text-ink-muted" />
      <span className="min-w-0">
        <span className="block text-sm font-semibold text-ink">{title}</span>
        <span className="block text-xs text-ink-muted">{hint}</span>
      </span>
    </label>
  );

  return (
    <Modal
      open
      onClose={onClose}
      busy={pending}
      title={isFile ? t('dashboard.share.fileTitle') : t('dashboard.share.folderTitle')}
      // "Share “name”": the same words for a file as for a folder.
      description={t('dashboard.share.folderDescription', { name: item.name })}
      icon={<ShareModalIcon />}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            {t('ui.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={pending} disabled={shareType === 'private' && !trimmed}>
            {t('dashboard.share.submit')}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-5">
        <form id={formId} noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-sm font-medium text-ink">{t('dashboard.share.typeLabel')}</legend>
            {option(
              'public',
              Globe,
              t('dashboard.share.public'),
              isFile ? t('dashboard.share.filePublicHint') : t('dashboard.share.publicHint'),
            )}
            {option('private', UserRound, t('dashboard.share.private'), t('dashboard.share.privateHint'))}
          </fieldset>
          {shareType === 'private' && (
            <div className="grid gap-3 sm:grid-cols-[1fr_10rem]">
              <TextField
                ref={emailRef}
                label={t('dashboard.share.email')}
                type="email"
                inputMode="email"
                autoComplete="email"
                placeholder={t('dashboard.share.emailPlaceholder')}
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
              <SelectField
                label={t('dashboard.share.personRole')}
                value={personRole}
                options={PRIVATE_ROLE_CHOICES.map((role) => ({ value: role, label: t(`dashboard.share.roles.${role}`) }))}
                onChange={setPersonRole}
              />
            </div>
          )}
          {shareType === 'public' && (
            <LinkRoleFields
              kind={item.kind}
              role={linkRole}
              onRoleChange={setLinkRole}
              limit={limit}
              onLimitChange={(value) => {
                setLimit(value);
                setLimitError(undefined);
              }}
              limitError={limitError}
              message={message}
              onMessageChange={setMessage}
            />
          )}
          {shareType === 'public' && options.extras && (
            <LinkSettingsFields
              maxHours={options.maxHours}
              expiresIn={expiresIn}
              onExpiresInChange={setExpiresIn}
              password={password}
              onPasswordChange={(value) => {
                setPassword(value);
                setPasswordError(undefined);
              }}
              passwordError={passwordError}
            />
          )}
        </form>
        <PeopleWithAccess item={item} />
        <ExistingShares item={item} options={options} />
        {!isFile && <FolderActivityDetails folderId={item.id} name={item.name} />}
      </div>
    </Modal>
  );
}
