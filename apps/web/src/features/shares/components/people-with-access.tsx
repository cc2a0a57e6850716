import { ChevronDown, UserRound } from 'lucide-react';
import { useRef, useState } from 'react';
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
  const changeReshare = (share: Share, mayReshare: boolean, settled: () => void) =>
    update.mutate(
      { id: share.id, body: { mayReshare } },
      { onError: (error) => notify.error('dashboard.share.updateFailed', { error }), onSettled: settled },
    );

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
        {people.map((share) => (
          <PersonRow
            key={share.id}
            share={share}
            busy={update.isPending || revoke.isPending}
            onRole={(choice) => changeRole(share, choice)}
            onReshare={(mayReshare, settled) => changeReshare(share, mayReshare, settled)}
          />
        ))}
      </ul>
    </section>
  );
}

interface PersonRowProps {
  share: Share;
  busy: boolean;
  /** A role, or REMOVE. */
  onRole: (choice: string) => void;
  /** The switch's new state; `settled` once the server answered. */
  onReshare: (mayReshare: boolean, settled: () => void) => void;
}

/** One person: their address, their role menu (with Remove access) and the switch to share further. */
function PersonRow({ share, busy, onRole, onReshare }: PersonRowProps) {
  const { t } = useTranslation();
  // The switch follows the hand at once; the list's answer takes over once the server has replied.
  const [asked, setAsked] = useState<boolean | null>(null);
  const email = share.email ?? '';
  return (
    <li aria-label={email} className="flex flex-wrap items-center gap-x-2 gap-y-1 px-3 py-2">
      <UserRound aria-hidden="true" className="size-4 shrink-0 text-ink-muted" />
      <p className="min-w-0 flex-1 truncate text-sm text-ink" title={email}>
        {email}
      </p>
      <span className="relative shrink-0">
        <select
          aria-label={t('dashboard.share.roleOf', { email })}
          value={share.role}
          disabled={busy}
          onChange={(event) => onRole(event.target.value)}
          className="focus-ring h-9 appearance-none rounded-control border border-line-strong bg-surface pr-8 pl-2.5 text-sm text-ink hover:border-ink-subtle disabled:opacity-60"
        >
          {PRIVATE_ROLE_CHOICES.map((role) => (
            <option key={role} value={role}>
              {t(`dashboard.share.roles.${role}`)}
            </option>
          ))}
          <option value={REMOVE}>{t('dashboard.share.removeAccess')}</option>
        </select>
        <ChevronDown aria-hidden="true" className="pointer-events-none absolute top-1/2 right-2 size-4 -translate-y-1/2 text-ink-subtle" />
      </span>
      <label className="flex w-full cursor-pointer items-center gap-2 pl-6 text-xs text-ink-muted">
        <input
          type="checkbox"
          checked={asked ?? share.mayReshare === true}
          disabled={busy}
          onChange={(event) => {
            setAsked(event.target.checked);
            onReshare(event.target.checked, () => setAsked(null));
          }}
          className="size-4 accent-brand-600"
        />
        {t('dashboard.share.mayReshare')}
      </label>
    </li>
  );
}
