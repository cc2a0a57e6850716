import { Copy, Link2, LockKeyhole, Trash2, UserRound } from 'lucide-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Share } from '@cloudvault/contract/shares';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { notify } from '../../../lib/notify';
import { useShares } from '../api/get-shares';
import { useRevokeShare } from '../api/revoke-share';
import { copyText } from '../copy-text';
import { hasExpired } from '../public-links';
import type { ShareTarget } from '../share-item';

/**
 * The links and people an item is already shared with, in its share dialog: each link can be
 * copied again, and any share removed, so a second share is a choice and not an accident.
 */
export function ExistingShares({ item }: { item: ShareTarget }) {
  const { t } = useTranslation();
  const shares = useShares();
  const revoke = useRevokeShare();
  const listRef = useRef<HTMLDivElement>(null);
  const mine = (shares.data ?? []).filter((share) => share.itemId === item.id && share.itemType === item.kind);

  if (shares.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-ink-muted">
        <Spinner className="size-4" />
        {t('dashboard.share.existingLoading')}
      </p>
    );
  }
  // Nothing to show is also what a failed read shows: the dialog still shares.
  if (mine.length === 0) return null;

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
      <ul aria-label={t('dashboard.share.existingTitle')} className="flex flex-col divide-y divide-line rounded-control border border-line">
        {mine.map((share) => (
          <ExistingShareRow key={share.id} share={share} busy={revoke.isPending} onCopy={copy} onRemove={remove} />
        ))}
      </ul>
    </div>
  );
}

function ExistingShareRow({
  share,
  busy,
  onCopy,
  onRemove,
}: {
  share: Share;
  busy: boolean;
  onCopy: (share: Share) => void;
  onRemove: (share: Share) => void;
}) {
  const { t, i18n } = useTranslation();
  const isLink = share.kind === 'link';
  const who = isLink ? (share.shareUrl ?? '') : (share.email ?? '');
  const Icon = isLink ? Link2 : UserRound;
  const expiry =
    share.expiresAt === null
      ? null
      : t(hasExpired(share.expiresAt, new Date()) ? 'shares.manage.expiredOn' : 'shares.manage.expiresOn', {
          date: new Date(share.expiresAt).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
        });

  return (
    <li aria-label={isLink ? t('dashboard.share.existingLink') : who} className="flex items-center gap-2 px-3 py-2">
      <Icon aria-hidden="true" className="size-4 shrink-0 text-ink-muted" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm text-ink" title={who}>
          {isLink ? t('dashboard.share.existingLink') : who}
        </p>
        <p className="flex flex-wrap items-center gap-x-2 text-xs text-ink-muted">
          {isLink && <span className="max-w-full truncate">{who}</span>}
          {expiry && <span>{expiry}</span>}
          {share.passwordProtected && (
            <span className="inline-flex items-center gap-1">
              <LockKeyhole aria-hidden="true" className="size-3" />
              {t('shares.manage.password')}
            </span>
          )}
        </p>
      </div>
      {isLink && (
        <Button variant="ghost" size="sm" onClick={() => onCopy(share)} aria-label={t('shares.manage.copy')}>
          <Copy aria-hidden="true" className="size-4" />
        </Button>
      )}
      <Button
        variant="ghost"
        size="sm"
        disabled={busy}
        onClick={() => onRemove(share)}
        aria-label={isLink ? t('dashboard.share.removeLink') : t('dashboard.share.removePerson', { email: who })}
      >
        <Trash2 aria-hidden="true" className="size-4" />
      </Button>
    </li>
  );
}
