import { TriangleAlert } from 'lucide-react';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { PageTitle } from '../../../components/ui/page-title';
import { ApiError } from '../../../lib/api-client';
import { needsPassword, usePublicShare } from '../api/get-public-share';
import { useShareAccess } from '../hooks/use-share-access';
import { FileRequestPage } from './file-request-page';
import { LoadingState, Notice } from './page-states';
import { PublicFileCard } from './public-file-card';
import { PublicFolderView } from './public-folder-view';
import { SharePasswordForm } from './share-password-form';
import { ShareUnavailable } from './share-unavailable';
import type { ViewerSlot } from '../slots';

/**
 * How long after a download starts the link is asked about again: by then the server has
 * counted it, and a link that reached its download limit says so instead of offering more.
 */
const RECHECK_AFTER_DOWNLOAD_MS = 2000;

/**
 * The public share page `/s/<token>` (docs/product.md#public-share-page): what a link shares, for
 * anyone who has it, signed in or not. A protected link asks for its password first.
 */
export function PublicSharePage({ viewer }: { viewer: ViewerSlot }) {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const [access, setAccess] = useShareAccess(token);
  const share = usePublicShare(token, access);
  const status = share.error instanceof ApiError ? share.error.status : undefined;
  const code = share.error instanceof ApiError ? share.error.code : undefined;
  const recheckTimer = useRef<number | undefined>(undefined);
  const { refetch } = share;
  const recheck = useCallback(() => {
    window.clearTimeout(recheckTimer.current);
    recheckTimer.current = window.setTimeout(() => void refetch(), RECHECK_AFTER_DOWNLOAD_MS);
  }, [refetch]);
  useEffect(() => () => window.clearTimeout(recheckTimer.current), []);

  let content;
  if (share.isPending) {
    content = <LoadingState label={t('shares.public.loading')} />;
  } else if (needsPassword(share.error)) {
    // A grant that no longer opens the link (its hour is over) is asked for again.
    content = <SharePasswordForm token={token} lapsed={access !== null} onUnlocked={setAccess} />;
  } else if (status === 410) {
    content = <ShareUnavailable reason={code === 'DOWNLOAD_LIMIT_REACHED' ? 'limitReached' : 'expired'} />;
  } else if (status === 404 || status === 400) {
    // 400: not even the shape of a token.
    content = <ShareUnavailable reason="notFound" />;
  } else if (share.isError) {
    content = (
      <Notice alert icon={<TriangleAlert aria-hidden="true" className="size-7 text-danger" />} title={t('shares.public.loadFailed')}>
        <Button variant="secondary" onClick={() => void share.refetch()}>
          {t('shares.retry')}
        </Button>
      </Notice>
    );
  } else if (share.data.type === 'file') {
    content = <PublicFileCard token={token} share={share.data} access={access} viewer={viewer} onDownload={recheck} />;
  } else if (share.data.role === 'upload') {
    content = <FileRequestPage token={token} share={share.data} access={access} onLocked={() => setAccess(null)} />;
  } else {
    content = (
      <PublicFolderView
        token={token}
        share={share.data}
        access={access}
        onLocked={() => setAccess(null)}
        onDownload={recheck}
        viewer={viewer}
      />
    );
  }

  return (
    <>
      <PageTitle title={share.data?.name ?? t('shares.public.pageTitle')} />
      <div className="flex w-full flex-1 flex-col justify-center py-4 sm:py-8">{content}</div>
    </>
  );
}
