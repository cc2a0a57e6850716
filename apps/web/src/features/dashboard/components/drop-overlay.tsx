import { CloudUpload } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** Full screen while files from the desktop are dragged over the page. */
export function DropOverlay({ folderName }: { folderName: string }) {
  const { t } = useTranslation();
  return (
    <div className="cv-fade-in pointer-events-none fixed inset-0 z-[70] flex items-center justify-center bg-brand-950/40 p-6 backdrop-blur-sm">
      <div className="flex w-full max-w-lg flex-col items-center rounded-3xl border-2 border-dashed border-white/70 bg-brand-600/90 px-8 py-14 text-center text-white shadow-2xl">
        <CloudUpload aria-hidden="true" className="size-14 animate-bounce" />
        <p className="mt-5 text-2xl font-bold tracking-tight">{t('dashboard.dropOverlay.title')}</p>
        <p className="mt-1 text-sm text-white/80">{t('dashboard.dropOverlay.subtitle', { folder: folderName })}</p>
      </div>
    </div>
  );
}
