import { CalendarClock, Inbox, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { PublicShare } from '@cloudvault/contract/shares';
import { ownerName } from '../public-links';
import { LinkUploadArea } from './link-upload-area';
import { formatMoment } from '../../../lib/dates';

interface FileRequestPageProps {
  token: string;
  share: PublicShare;
  access: string | null;
  onLocked: () => void;
}

/**
 * An upload link (a file request) for its visitor: who asks, for which folder, their message
 * and the deadline, and where to drop files. Nothing of the folder is shown: a visitor sees
 * only what they sent in this visit.
 */
export function FileRequestPage({ token, share, access, onLocked }: FileRequestPageProps) {
  const { t, i18n } = useTranslation();
  const owner = ownerName(share.owner);
  const deadline = share.expiresAt ? formatMoment(share.expiresAt, i18n.language) : null;

  return (
    <article className="mx-auto flex w-full max-w-2xl flex-col gap-5 rounded-card border border-line bg-surface p-5 shadow-card sm:p-8">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <span className="grid size-14 shrink-0 place-items-center rounded-2xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300">
          <Inbox aria-hidden="true" className="size-7" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-xs font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-300">{t('shares.request.kicker')}</p>
          <h1 className="mt-1 text-xl font-bold tracking-tight break-words text-ink sm:text-2xl">{share.name}</h1>
          <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-ink-muted">
            <div className="flex items-center gap-1.5">
              <UserRound aria-hidden="true" className="size-4 text-ink-subtle" />
              <dt className="sr-only">{t('shares.public.ownerLabel')}</dt>
              <dd>{t('shares.request.askedBy', { owner })}</dd>
            </div>
            <div className="flex items-center gap-1.5">
              <CalendarClock aria-hidden="true" className="size-4 text-ink-subtle" />
              <dt className="sr-only">{t('shares.request.deadlineLabel')}</dt>
              <dd>{deadline ? t('shares.request.deadline', { date: deadline }) : t('shares.request.noDeadline')}</dd>
            </div>
          </dl>
        </div>
      </header>
      {share.message && (
        <figure className="rounded-xl bg-surface-muted px-4 py-3">
          <blockquote className="text-sm break-words whitespace-pre-line text-ink">{share.message}</blockquote>
          <figcaption className="mt-1.5 text-xs text-ink-muted">{t('shares.request.messageFrom', { owner })}</figcaption>
        </figure>
      )}
      <p className="text-sm text-ink-muted">{t('shares.request.privacy', { owner })}</p>
      <LinkUploadArea token={token} access={access} maxFileSize={share.maxFileSize ?? undefined} onLocked={onLocked} />
    </article>
  );
}
