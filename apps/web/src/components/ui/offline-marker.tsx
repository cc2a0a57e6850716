import { CircleArrowDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { FileItem } from '@cloudvault/contract/files';
import { useOfflineCopy } from '../../hooks/use-offline-copy';

/** The small mark of a file kept on this device ("Available offline"), read out with the item's name. */
export function OfflineMarker({ file }: { file: FileItem }) {
  const { t } = useTranslation();
  const { kept } = useOfflineCopy(file);
  if (!kept) return null;
  return (
    <span
      role="img"
      aria-label={t('offlineFiles.marker')}
      title={t('offlineFiles.marker')}
      className="inline-flex shrink-0 text-brand-600 dark:text-brand-300"
    >
      <CircleArrowDown aria-hidden="true" className="size-3.5" />
    </span>
  );
}
