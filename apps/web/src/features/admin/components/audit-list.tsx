import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AuditEntry } from '@cloudvault/contract/admin';
import { formatDay } from '../../../lib/dates';
import { formatDateTime } from '../figures';

/** What was done, with the plan and its end for a grant. */
function useWhat() {
  const { t, i18n } = useTranslation();
  return (entry: AuditEntry) => {
    const action = t(`admin.audit.actions.${entry.action}`);
    if (entry.action === 'grant_plan' && entry.details.plan && entry.details.planEndsAt) {
      return t('admin.audit.grantDetails', {
        action,
        plan: t(`common.plans.${entry.details.plan}`),
        date: formatDay(entry.details.planEndsAt, i18n.language),
      });
    }
    return action;
  };
}

/**
 * Operator actions, newest first: who, when, what, to whom and why. A table from tablet
 * width up, cards on a phone. `showTarget` is off on a user's own page, where it is obvious.
 */
export function AuditList({ entries, showTarget = true }: { entries: AuditEntry[]; showTarget?: boolean }) {
  const { t, i18n } = useTranslation();
  const what = useWhat();
  const who = (entry: AuditEntry) => entry.details.adminEmail ?? t('admin.audit.commandLine');
  const target = (entry: AuditEntry) => (
    <Link
      to={`/admin/users/${entry.targetId}`}
      className="focus-ring rounded-sm break-all text-brand-700 hover:underline dark:text-brand-300"
    >
      {entry.details.targetEmail}
    </Link>
  );
  const why = (entry: AuditEntry) => entry.details.reason ?? t('admin.audit.noReason');

  return (
    <>
      <div className="hidden overflow-hidden rounded-card border border-line bg-surface shadow-card md:block">
        <table className="w-full table-fixed text-left text-sm">
          <caption className="sr-only">{t('admin.audit.tableCaption')}</caption>
          <thead className="border-b border-line bg-surface-muted/60 text-xs text-ink-muted">
            <tr>
              <th scope="col" className="w-44 px-4 py-3 font-medium">
                {t('admin.audit.columns.when')}
              </th>
              <th scope="col" className="px-3 py-3 font-medium">
                {t('admin.audit.columns.who')}
              </th>
              <th scope="col" className="px-3 py-3 font-medium">
                {t('admin.audit.columns.what')}
              </th>
              {showTarget && (
                <th scope="col" className="px-3 py-3 font-medium">
                  {t('admin.audit.columns.target')}
                </th>
              )}
              <th scope="col" className="px-4 py-3 font-medium">
                {t('admin.audit.columns.why')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {entries.map((entry) => (
              <tr key={entry.id} className="align-top">
                <td className="px-4 py-3 text-ink-muted">
                  <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt, i18n.language)}</time>
                </td>
                <td className="px-3 py-3 break-all text-ink">{who(entry)}</td>
                <td className="px-3 py-3 font-medium text-ink">{what(entry)}</td>
                {showTarget && <td className="px-3 py-3">{target(entry)}</td>}
                <td className="px-4 py-3 break-words whitespace-pre-line text-ink">{why(entry)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ul aria-label={t('admin.audit.tableCaption')} className="flex flex-col gap-3 md:hidden">
        {entries.map((entry) => (
          <li key={entry.id} className="rounded-card border border-line bg-surface p-4 text-sm shadow-card">
            <p className="font-semibold text-ink">{what(entry)}</p>
            <p className="mt-0.5 text-xs text-ink-muted">
              <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt, i18n.language)}</time>
            </p>
            <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1.5">
              <dt className="text-ink-muted">{t('admin.audit.columns.who')}</dt>
              <dd className="break-all text-ink">{who(entry)}</dd>
              {showTarget && (
                <>
                  <dt className="text-ink-muted">{t('admin.audit.columns.target')}</dt>
                  <dd>{target(entry)}</dd>
                </>
              )}
              <dt className="text-ink-muted">{t('admin.audit.columns.why')}</dt>
              <dd className="break-words whitespace-pre-line text-ink">{why(entry)}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}
