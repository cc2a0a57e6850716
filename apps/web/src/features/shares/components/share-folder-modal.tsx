import { Globe, UserRound } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { shareFolder } from '../api/create-share';
import type { ShareTarget } from '../share-item';
import { PASSWORD_MIN_LENGTH } from '@cloudvault/contract/validation';
import { linkPasswordTooShort, type LinkOptions } from '../link-options';
import { announceLink } from '../announce-link';
import { LinkSettingsFields } from './link-settings-fields';
import { ShareModalIcon } from './share-modal-icon';

/**
 * 'Share Folder': a public link (copied to the clipboard) or a private share with one
 * e-mail address; on plans with password links, the public link's lifetime and an optional
 * password. Closes after the attempt, whether it worked or not (docs/product.md#sharing).
 */
export function ShareFolderModal({ item, options, onClose }: { item: ShareTarget | null; options: LinkOptions; onClose: () => void }) {
  return item ? <ShareFolderForm key={item.id} item={item} options={options} onClose={onClose} /> : null;
}

function ShareFolderForm({ item, options, onClose }: { item: ShareTarget; options: LinkOptions; onClose: () => void }) {
  const { t } = useTranslation();
  const [shareType, setShareType] = useState<'public' | 'private'>('public');
  const [email, setEmail] = useState('');
  // The longest the plan allows, as the server gives a folder link sent without one.
  const [expiresIn, setExpiresIn] = useState(options.maxHours);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const trimmed = email.trim();

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
    setPending(true);
    try {
      if (shareType === 'public') {
        const settings = options.extras ? { expiresIn, ...(password ? { password } : {}) } : {};
        const answer = await shareFolder(item.id, { shareType: 'public', ...settings });
        const shareUrl = 'shareUrl' in answer ? answer.shareUrl : '';
        await announceLink(shareUrl, {
          copied: t('dashboard.share.publicCopied'),
          shown: t('dashboard.share.linkReady', { url: shareUrl }),
        });
      } else {
        await shareFolder(item.id, { shareType: 'private', email: trimmed });
        toast.success(t('dashboard.share.sharedWith', { email: trimmed }));
      }
    } catch (error) {
      // The server's reason (a bad e-mail…), except for "no such route" while sharing
      // is not deployed: that is no reason a person can act on.
      const reason = error instanceof ApiError && error.code !== 'ROUTE_NOT_FOUND' ? error.serverMessage : undefined;
      toast.error(reason ?? t('dashboard.share.folderFailed'));
    } finally {
      setPending(false);
      onClose();
    }
  };

  const option = (value: 'public' | 'private', Icon: typeof Globe, title: string, hint: string) => (
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
      title={t('dashboard.share.folderTitle')}
      description={t('dashboard.share.folderDescription', { name: item.name })}
      icon={<ShareModalIcon />}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            {t('ui.cancel')}
          </Button>
          <Button type="submit" form="share-folder-form" loading={pending} disabled={shareType === 'private' && !trimmed}>
            {t('dashboard.share.submit')}
          </Button>
        </>
      }
    >
      <form id="share-folder-form" noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-medium text-ink">{t('dashboard.share.typeLabel')}</legend>
          {option('public', Globe, t('dashboard.share.public'), t('dashboard.share.publicHint'))}
          {option('private', UserRound, t('dashboard.share.private'), t('dashboard.share.privateHint'))}
        </fieldset>
        {shareType === 'private' && (
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
    </Modal>
  );
}
