import { Copy, Download, Link2, LockKeyhole, Trash2, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Share } from '@cloudvault/contract/shares';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { FileIcon, FolderIcon } from '../../../components/ui/file-icon';
import { hasExpired } from '../public-links';
import { formatMoment } from '../../../lib/dates';

interface ShareRowProps {
  share: Share;
  now: Date;
  onCopy: (share: Share) => void;
  onRevoke: (share: Share) => void;
}

/** One link or private share: what, with whom or by link, until when, and its actions. */
export function ShareRow({ share, now, onCopy, onRevoke }: ShareRowProps) {
  const { t, i18n } = useTranslation();
  const expired = hasExpired(share.expiresAt, now);
  const when = (iso: string) => formatMoment(iso, i18n.language);

  return (
    <li aria-label={share.name} className="flex items-center gap-3 px-3 py-3 sm:px-5">
      {share.itemType === 'folder' ? <FolderIcon size="md" /> : <FileIcon mimetype="" name={share.name} size="md" />}
      <div className="min-w-0 flex-1">
        <p className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <span className="truncate text-sm font-semibold text-ink" title={share.name}>
            {share.name}
          </span>
          <Badge tone={share.kind === 'link' ? 'brand' : 'neutral'}>
            {share.kind === 'link' ? <Link2 aria-hidden="true" className="size-3" /> : <UserRound aria-hidden="true" className="size-3" />}
            {share.kind === 'link' ? t('shares.manage.kindLink') : t('shares.manage.kindPrivate')}
          </Badge>
          {share.passwordProtected && (
            <Badge tone="warning">
              <LockKeyhole aria-hidden="true" className="size-3" />
              {t('shares.manage.password')}
            </Badge>
          )}
          {expired && <Badge tone="danger">{t('shares.manage.expired')}</Badge>}
        </p>
        <p className="mt-0.5 text-xs text-ink-muted">
          {share.itemType === 'folder' ? t('shares.manage.folder') : t('shares.manage.file')}
          {share.email && (
            <>
              <span className="text-ink-subtle"> · </span>
              <span className="break-all">{t('shares.manage.with', { email: share.email })}</span>
            </>
          )}
          <span className="text-ink-subtle"> · </span>
          {share.expiresAt === null
            ? t('shares.manage.noExpiry')
            : expired
              ? t('shares.manage.expiredOn', { date: when(share.expiresAt) })
              : t('shares.manage.expiresOn', { date: when(share.expiresAt) })}
          {share.downloadCount !== undefined && (
            <>
              <span className="text-ink-subtle"> · </span>
              <span className="inline-flex items-center gap-1">
                <Download aria-hidden="true" className="size-3" />
                {t('shares.manage.downloads', { count: share.downloadCount })}
              </span>
            </>
          )}
        </p>
      </div>
      <div className="flex shrink-0 items-center gap-1 sm:gap-2">
        {share.shareUrl && (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => onCopy(share)}
            aria-label={t('shares.manage.copyNamed', { name: share.name })}
          >
            <Copy aria-hidden="true" className="size-4" />
            <span className="sr-only sm:not-sr-only">{t('shares.manage.copy')}</span>
          </Button>
        )}
        <Button variant="ghost" size="sm" onClick={() => onRevoke(share)} aria-label={t('shares.manage.revokeNamed', { name: share.name })}>
          <Trash2 aria-hidden="true" className="size-4" />
          <span className="sr-only sm:not-sr-only">{t('shares.manage.revoke')}</span>
        </Button>
      </div>
    </li>
  );
}
