import { Link2, Trash2, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { notify } from '../../../lib/notify';
import { useTranslation } from 'react-i18next';
import type { Share } from '@cloudvault/contract/shares';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { PageTitle } from '../../../components/ui/page-title';
import { announceLink } from '../announce-link';
import { useShares } from '../api/get-shares';
import { useRevokeShare } from '../api/revoke-share';
import { BackToFiles } from './back-link';
import { LoadingState, Notice } from './page-states';
import { ShareRow } from './share-row';

/** 'Manage shares' (docs/product.md#manage-shares): every link and private share, with copy and revoke. */
export function SharesPage() {
  const { t } = useTranslation();
  const shares = useShares();
  const revoke = useRevokeShare();
  const [revoking, setRevoking] = useState<Share | null>(null);
  // One clock per render of the list, so every row agrees on what has expired.
  const now = new Date(shares.dataUpdatedAt || Date.now());

  const onCopy = (share: Share) => {
    if (share.shareUrl) void announceLink(share.shareUrl, 'shares.manage.copied');
  };

  const onRevoke = (share: Share) => {
    revoke.mutate(share.id, {
      onSuccess: () => notify.success('shares.manage.revoked', { values: { name: share.name } }),
      onError: (error) => notify.error('shares.manage.revokeFailed', { error }),
      onSettled: () => setRevoking(null),
    });
  };

  let content;
  if (shares.isPending) {
    content = <LoadingState label={t('shares.manage.loading')} />;
  } else if (shares.isError) {
    content = (
      <Notice alert icon={<TriangleAlert aria-hidden="true" className="size-7 text-danger" />} title={t('shares.manage.loadFailed')}>
        <Button variant="secondary" onClick={() => void shares.refetch()}>
          {t('shares.retry')}
        </Button>
      </Notice>
    );
  } else if (shares.data.length === 0) {
    content = (
      <Notice icon={<Link2 aria-hidden="true" className="size-7" />} title={t('shares.manage.empty')} body={t('shares.manage.emptyHint')} />
    );
  } else {
    content = (
      <ul aria-label={t('shares.manage.listLabel')} className="divide-y divide-line">
        {shares.data.map((share) => (
          <ShareRow key={share.id} share={share} now={now} onCopy={onCopy} onRevoke={setRevoking} />
        ))}
      </ul>
    );
  }

  return (
    <>
      <PageTitle title={t('shares.manage.pageTitle')} />
      <div className="min-w-0">
        <BackToFiles />
        <h1 className="mt-2 text-2xl font-bold tracking-tight text-ink sm:text-3xl">{t('shares.manage.title')}</h1>
        <p className="mt-1.5 max-w-2xl text-sm text-ink-muted">{t('shares.manage.subtitle')}</p>
      </div>
      <section className="mt-6 overflow-hidden rounded-card border border-line bg-surface shadow-card">
        {shares.data && shares.data.length > 0 && (
          <p className="border-b border-line px-3 py-2.5 text-xs font-medium text-ink-muted sm:px-5">
            {t('shares.manage.summary', { count: shares.data.length })}
          </p>
        )}
        {content}
      </section>
      <Modal
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        busy={revoke.isPending}
        size="sm"
        title={t('shares.manage.confirmTitle', { name: revoking?.name ?? '' })}
        description={
          revoking?.kind === 'private' ? t('shares.manage.confirmPrivate', { email: revoking.email ?? '' }) : t('shares.manage.confirmLink')
        }
        icon={
          <span className="grid size-10 place-items-center rounded-xl bg-danger-soft text-danger">
            <Trash2 aria-hidden="true" className="size-5" />
          </span>
        }
        footer={
          <>
            <Button variant="secondary" onClick={() => setRevoking(null)} disabled={revoke.isPending}>
              {t('ui.cancel')}
            </Button>
            <Button variant="danger" loading={revoke.isPending} onClick={() => revoking && onRevoke(revoking)}>
              {t('shares.manage.revoke')}
            </Button>
          </>
        }
      />
    </>
  );
}
