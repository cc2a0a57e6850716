import { CloudUpload, FolderOpen, FolderPlus, Upload } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';

interface EmptyStateProps {
  atHome: boolean;
  /** Take the focus on the heading (an empty folder just opened: it says where the person is). */
  focusHeading?: boolean;
  onUpload: () => void;
  onNewFolder: () => void;
}

/** 'Your cloud is empty' at home, 'This folder is empty' elsewhere; both offer the two ways to fill it. */
export function EmptyState({ atHome, focusHeading = false, onUpload, onNewFolder }: EmptyStateProps) {
  const { t } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusHeading) headingRef.current?.focus();
  }, [focusHeading]);
  const Icon = atHome ? CloudUpload : FolderOpen;
  return (
    <div className="flex flex-col items-center justify-center rounded-card border-2 border-dashed border-line px-6 py-14 text-center sm:py-20">
      <span className="grid size-16 place-items-center rounded-2xl bg-gradient-to-br from-brand-50 to-brand-100 text-brand-600 ring-1 ring-brand-100 ring-inset dark:from-brand-950 dark:to-brand-900/60 dark:text-brand-300 dark:ring-brand-900">
        <Icon aria-hidden="true" className="size-8" />
      </span>
      <h2 ref={headingRef} tabIndex={-1} className="focus-ring mt-5 rounded-md text-lg font-semibold text-ink">
        {atHome ? t('dashboard.empty.root') : t('dashboard.empty.folder')}
      </h2>
      <p className="mt-1.5 max-w-md text-sm text-ink-muted">{atHome ? t('dashboard.empty.rootHint') : t('dashboard.empty.folderHint')}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <Button onClick={onUpload}>
          <Upload aria-hidden="true" className="size-4" />
          {t('dashboard.empty.uploadFiles')}
        </Button>
        <Button variant="secondary" onClick={onNewFolder}>
          <FolderPlus aria-hidden="true" className="size-4" />
          {t('dashboard.empty.newFolder')}
        </Button>
      </div>
    </div>
  );
}
