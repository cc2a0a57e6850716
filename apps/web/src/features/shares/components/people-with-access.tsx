import { ChevronDown, UserRound } from 'lucide-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { PrivateRole, Share } from '@cloudvault/contract/shares';
import { useSession } from '../../../hooks/use-session';
import { notify } from '../../../lib/notify';
import { useRevokeShare } from '../api/revoke-share';
import { useShares } from '../api/get-shares';
import { useUpdateShare } from '../api/update-share';
import { PRIVATE_ROLE_CHOICES } from '../share-roles';
import type { ShareTarget } from '../share-item';

const REMOVE = 'remove';

/**
 * Who has the item besides links: its owner, then each person it is shared with, whose role
 * menu changes the role (Viewer, Editor) or removes them at once, and whose switch lets them
 * share it further. Nothing but the owner while nobody has it.
 */
export function PeopleWithAccess({ item }: { item: ShareTarget }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const shares = useShares();
  const update = useUpdateShare();
  const revoke = useRevokeShare();
  const listRef = useRef<HTMLUListElement>(null);
  const people = (shares.data ?? []).filter(
    (share) => share.kind === 'private' && share.itemId === item.id && share.itemType === item.kind,
  );
  const owner = user ? [user.firstName, user.lastName].filter(Boolean).join(' ') : '';

  const changeRole = (share: Share, choice: string) => {
    const email = share.email ?? '';
    if (choice === REMOVE) {
      revoke.mutate(share.id, {
        onSuccess: () => {
          notify.success('dashboard.share.accessRemoved', { values: { email } });
          // The row and its menu are gone: keep focus inside the dialog, on the list.
          listRef.current?.focus();
        },
        onError: (error) => notify.error('shares.manage.revokeFailed', { error }),
      });
      return;
    }
    const role = choice as PrivateRole;
    update.mutate(
      { id: share.id, body: { role } },
      {
        onSuccess: () => notify.success('dashboard.share.roleChanged', { values: { email, role: t(`dashboard.share.roles.${role}`) } }),
        onError: (error) => notify.error('dashboard.share.updateFailed', { error }),
      },
    );
  };
  const changeReshare = (share: Share, mayReshare: boolean) =>
    update.mutate({ id: share.id, body: { mayReshare } }, { onError: (error) => notify.error('dashboard.share.updateFailed', { error }) });

  return (
    <section className="flex flex-col gap-2">
      <h3 className="text-sm font-medium text-ink">{t('dashboard.share.peopleTitle')}</h3>
      <ul
        ref={listRef}
        tabIndex={-1}
        aria-label={t('dashboard.share.peopleTitle')}
        className="flex flex-col divide-y divide-line rounded-control border border-line outline-none"
      >
        <li aria-label={t('dashboard.share.you', { name: owner })} className="flex items-center gap-2 px-3 py-2">
          <UserRound aria-hidden="true" className="size-4 shrink-0 text-ink-muted" />
          <p className="min-w-0 flex-1 truncate text-sm text-ink">{t('dashboard.share.you', { name: owner })}</p>
          <span className="text-xs text-ink-muted">{t('dashboard.share.owner')}</span>
        </li>
        {people.map((share) => {
          const email = share.email ?? '';
          const busy = update.isPending || revoke.isPending;
          return (
            <li key={share.id} aria-label={email} className="flex flex-wrap items-center gap-x-2 gap-y-1 px-3 py-2">
              <UserRound aria-hidden="true" className="size-4 shrink-0 text-ink-muted" />
              <p className="min-w-0 flex-1 truncate text-sm text-ink" title={email}>
                {email}
              </p>
              <span className="relative shrink-0">
                <select
                  aria-label={t('dashboard.share.roleOf', { email })}
                  value={share.role}
                  disabled={busy}
                  onChange={(event) => changeRole(share, event.target.value)}
                  className="focus-ring h-9 appearance-none rounded-control border border-line-strong bg-surface pr-8 pl-2.5 text-sm text-ink hover:border-ink-subtle disabled:opacity-60"
                >
                  {PRIVATE_ROLE_CHOICES.map((role) => (
                    <option key={role} value={role}>
                      {t(`dashboard.share.roles.${role}`)}
                    </option>
                  ))}
                  <option value={REMOVE}>{t('dashboard.share.removeAccess')}</option>
                </select>
                <ChevronDown
                  aria-hidden="true"
                  className="pointer-events-none absolute top-1/2 right-2 size-4 -translate-y-1/2 text-ink-subtle"
                />
              </span>
              <label className="flex w-full cursor-pointer items-center gap-2 pl-6 text-xs text-ink-muted">
                <input
                  type="checkbox"
                  checked={share.mayReshare === true}
                  disabled={busy}
                  onChange={(event) => changeReshare(share, event.target.checked)}
                  className="size-4 accent-brand-600"
                />
                {t('dashboard.share.mayReshare')}
              </label>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
