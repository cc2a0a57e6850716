import { Copy, Link2, LockKeyhole, Settings2, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Share } from '@cloudvault/contract/shares';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { notify } from '../../../lib/notify';
import { useShares } from '../api/get-shares';
import { useRevokeShare } from '../api/revoke-share';
import { copyText } from '../copy-text';
import type { LinkOptions } from '../link-options';
import { hasExpired } from '../public-links';
import type { ShareTarget } from '../share-item';
import { LinkEditForm } from './link-edit-form';

/**
 * The item's links, in its share dialog: each with its role, expiry, password, limit and
 * counts; each can be copied again, its settings changed (its address stays), or removed, so a
 * second link is a choice and not an accident.
 */
export function ExistingShares({ item, options }: { item: ShareTarget; options: LinkOptions }) {
  const { t } = useTranslation();
  const shares = useShares();
  const revoke = useRevokeShare();
  const listRef = useRef<HTMLDivElement>(null);
  const links = (shares.data ?? []).filter((share) => share.kind === 'link' && share.itemId === item.id && share.itemType === item.kind);

  if (shares.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-ink-muted">
        <Spinner className="size-4" />
        {t('dashboard.share.existingLoading')}
      </p>
    );
  }
  // A failed read shows nothing: the dialog still shares.
  if (shares.isError) return null;

  const copy = async (share: Share) => {
    if (share.shareUrl && (await copyText(share.shareUrl))) notify.success('shares.manage.copied');
    else notify.error('dashboard.share.copyFailed');
  };
  const remove = (share: Share) =>
    revoke.mutate(share.id, {
      onSuccess: () => {
        notify.success('dashboard.share.removed');
        // The row and its buttons are gone: keep focus inside the dialog, on the list.
        listRef.current?.focus();
      },
      onError: (error) => notify.error('shares.manage.revokeFailed', { error }),
    });

  return (
    <div ref={listRef} tabIndex={-1} className="flex flex-col gap-2 rounded-control outline-none">
      <h3 className="text-sm font-medium text-ink">{t('dashboard.share.existingTitle')}</h3>
      {links.length === 0 ? (
        // Said rather than left out: the section (and the focus, once its last link is removed) stays put.
        <p className="text-sm text-ink-muted">{t('dashboard.share.noLinks')}</p>
      ) : (
        <ul
          aria-label={t('dashboard.share.existingTitle')}
          className="flex flex-col divide-y divide-line rounded-control border border-line"
        >
          {links.map((share) => (
            <LinkRow key={share.id} share={share} item={item} options={options} busy={revoke.isPending} onCopy={copy} onRemove={remove} />
          ))}
        </ul>
      )}
    </div>
  );
}

interface LinkRowProps {
  share: Share;
  item: ShareTarget;
  options: LinkOptions;
  busy: boolean;
  onCopy: (share: Share) => void;
  onRemove: (share: Share) => void;
}

function LinkRow({ share, item, options, busy, onCopy, onRemove }: LinkRowProps) {
  const { t, i18n } = useTranslation();
  const [editing, setEditing] = useState(false);
  const settingsRef = useRef<HTMLButtonElement>(null);
  const url = share.shareUrl ?? '';
  const expiry =
    share.expiresAt === null
      ? null
      : t(hasExpired(share.expiresAt, new Date()) ? 'shares.manage.expiredOn' : 'shares.manage.expiresOn', {
          date: new Date(share.expiresAt).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
        });
  const closeEditor = () => {
    setEditing(false);
    settingsRef.current?.focus();
  };

  return (
    <li aria-label={t('dashboard.share.existingLink')} className="flex flex-col gap-2 px-3 py-2">
      <div className="flex items-center gap-2">
        <Link2 aria-hidden="true" className="size-4 shrink-0 text-ink-muted" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm text-ink">
            {t('dashboard.share.existingLink')}
            <span className="text-ink-subtle"> · </span>
            {t(`dashboard.share.linkRoles.${share.role as Exclude<Share['role'], 'viewer' | 'editor'>}`)}
          </p>
          <p className="flex flex-wrap items-center gap-x-2 text-xs text-ink-muted">
            <span className="max-w-full truncate">{url}</span>
            {expiry && <span>{expiry}</span>}
            {share.passwordProtected && (
              <span className="inline-flex items-center gap-1">
                <LockKeyhole aria-hidden="true" className="size-3" />
                {t('shares.manage.password')}
              </span>
            )}
            {share.downloadLimit !== null && <span>{t('dashboard.share.limitInfo', { count: share.downloadLimit })}</span>}
            {share.downloadCount !== undefined && <span>{t('shares.manage.downloads', { count: share.downloadCount })}</span>}
            {(share.role === 'upload' || share.role === 'edit') && (
              <span>{t('dashboard.share.uploads', { count: share.uploadCount })}</span>
            )}
          </p>
        </div>
        <Button variant="ghost" size="sm" onClick={() => onCopy(share)} aria-label={t('shares.manage.copy')}>
          <Copy aria-hidden="true" className="size-4" />
        </Button>
        <Button
          ref={settingsRef}
          variant="ghost"
          size="sm"
          aria-expanded={editing}
          onClick={() => setEditing((open) => !open)}
          aria-label={t('dashboard.share.linkSettings')}
        >
          <Settings2 aria-hidden="true" className="size-4" />
        </Button>
        <Button variant="ghost" size="sm" disabled={busy} onClick={() => onRemove(share)} aria-label={t('dashboard.share.removeLink')}>
          <Trash2 aria-hidden="true" className="size-4" />
        </Button>
      </div>
      {editing && <LinkEditForm share={share} kind={item.kind} options={options} onDone={closeEditor} />}
    </li>
  );
}
