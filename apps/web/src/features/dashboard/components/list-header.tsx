import { useTranslation } from 'react-i18next';

/** The list view's column headers: the grid's first row (hidden on a phone, where details sit under the name). */
export function ListHeader() {
  const { t } = useTranslation();
  return (
    <div
      role="row"
      aria-rowindex={1}
      className="hidden h-10 items-center gap-4 border-b border-line px-3 text-xs font-semibold tracking-wide text-ink-subtle uppercase sm:flex"
    >
      <span role="columnheader" className="min-w-0 flex-1">
        {t('dashboard.list.name')}
      </span>
      <span role="columnheader" className="w-24 text-right">
        {t('dashboard.list.size')}
      </span>
      <span role="columnheader" className="hidden w-32 md:block">
        {t('dashboard.list.modified')}
      </span>
      <span role="columnheader" className="w-[9.5rem] text-right">
        {t('dashboard.list.actions')}
      </span>
    </div>
  );
}
