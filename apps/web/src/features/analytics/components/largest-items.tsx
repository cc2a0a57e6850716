import { File, Folder } from 'lucide-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AnalyticsResponse } from '@cloudvault/contract/analytics';
import { folderHref } from '../../../lib/folder-href';
import { useFormatSize } from '../../../lib/format-size';
import { ChartCard } from './chart-card';

interface Entry {
  id: string;
  name: string;
  bytes: number;
  /** The folder the link opens in the dashboard. */
  href: string;
}

function EntryList({
  label,
  entries,
  icon: Icon,
  openLabel,
}: {
  label: string;
  entries: Entry[];
  icon: ComponentType<{ className?: string; 'aria-hidden'?: 'true' }>;
  openLabel: (name: string) => string;
}) {
  const largest = entries[0]?.bytes ?? 0;
  const formatSize = useFormatSize();
  return (
    <ol aria-label={label} className="grid gap-2.5">
      {entries.map((entry) => (
        <li key={entry.id} className="min-w-0">
          <div className="flex items-center gap-2 text-sm">
            <Icon aria-hidden="true" className="size-4 shrink-0 text-ink-subtle" />
            <Link
              to={entry.href}
              aria-label={openLabel(entry.name)}
              className="focus-ring min-w-0 flex-1 truncate rounded font-medium text-ink hover:text-brand-600 hover:underline dark:hover:text-brand-300"
            >
              {entry.name}
            </Link>
            <span className="shrink-0 text-ink-muted tabular-nums">{formatSize(entry.bytes)}</span>
          </div>
          {/* The bar repeats the size beside it, for a glance; the number is what is read out. */}
          <div aria-hidden="true" className="mt-1 h-1.5 overflow-hidden rounded-full bg-surface-muted">
            <div
              className="h-full rounded-full bg-brand-500 dark:bg-brand-400"
              style={{ width: `${largest > 0 ? Math.max(2, (entry.bytes / largest) * 100) : 0}%` }}
            />
          </div>
        </li>
      ))}
    </ol>
  );
}

/** The largest files and folders, each a link that opens its folder in the dashboard (a file: the folder it is in). */
export function LargestItems({
  files,
  folders,
}: {
  files: AnalyticsResponse['largestFiles'];
  folders: AnalyticsResponse['largestFolders'];
}) {
  const { t } = useTranslation();
  return (
    <ChartCard id="analytics-largest-title" title={t('analytics.largest.title')} className="lg:col-span-2">
      <div className="grid gap-6 md:grid-cols-2">
        <div className="min-w-0">
          <h4 className="mb-3 text-sm font-semibold text-ink-muted">{t('analytics.largest.files')}</h4>
          {files.length === 0 ? (
            <p className="text-sm text-ink-muted">{t('analytics.largest.noFiles')}</p>
          ) : (
            <EntryList
              label={t('analytics.largest.files')}
              icon={File}
              openLabel={(name) => t('analytics.largest.openFileFolder', { name })}
              entries={files.map((file) => ({ id: file.id, name: file.name, bytes: file.size, href: folderHref(file.folderId) }))}
            />
          )}
        </div>
        <div className="min-w-0">
          <h4 className="mb-3 text-sm font-semibold text-ink-muted">{t('analytics.largest.folders')}</h4>
          {folders.length === 0 ? (
            <p className="text-sm text-ink-muted">{t('analytics.largest.noFolders')}</p>
          ) : (
            <EntryList
              label={t('analytics.largest.folders')}
              icon={Folder}
              openLabel={(name) => t('analytics.largest.openFolder', { name })}
              entries={folders.map((folder) => ({ id: folder.id, name: folder.name, bytes: folder.bytes, href: folderHref(folder.id) }))}
            />
          )}
        </div>
      </div>
    </ChartCard>
  );
}
