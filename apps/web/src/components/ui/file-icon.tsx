import {
  File,
  FileArchive,
  FileAudio,
  FileImage,
  FileSpreadsheet,
  FileText,
  FileVideo,
  Folder,
  Presentation,
  type LucideIcon,
} from 'lucide-react';
import { cn } from '../../lib/cn';
import { fileKind, type FileKind } from '../../lib/file-category';

const icons: Record<FileKind, { icon: LucideIcon; tone: string }> = {
  image: { icon: FileImage, tone: 'bg-violet-50 text-violet-600 dark:bg-violet-500/10 dark:text-violet-300' },
  video: { icon: FileVideo, tone: 'bg-pink-50 text-pink-600 dark:bg-pink-500/10 dark:text-pink-300' },
  audio: { icon: FileAudio, tone: 'bg-teal-50 text-teal-600 dark:bg-teal-500/10 dark:text-teal-300' },
  pdf: { icon: FileText, tone: 'bg-red-50 text-red-600 dark:bg-red-500/10 dark:text-red-300' },
  word: { icon: FileText, tone: 'bg-blue-50 text-blue-600 dark:bg-blue-500/10 dark:text-blue-300' },
  sheet: { icon: FileSpreadsheet, tone: 'bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-300' },
  presentation: { icon: Presentation, tone: 'bg-orange-50 text-orange-600 dark:bg-orange-500/10 dark:text-orange-300' },
  archive: { icon: FileArchive, tone: 'bg-amber-50 text-amber-700 dark:bg-amber-500/10 dark:text-amber-300' },
  text: { icon: FileText, tone: 'bg-slate-100 text-slate-600 dark:bg-slate-500/15 dark:text-slate-300' },
  default: { icon: File, tone: 'bg-slate-100 text-slate-500 dark:bg-slate-500/15 dark:text-slate-300' },
};

/** The file's category icon (docs/product.md#file-categories) on a tinted square. */
export function FileIcon({ mimetype, name, size = 'md' }: { mimetype: string; name: string; size?: 'sm' | 'md' | 'lg' }) {
  const kind = fileKind(mimetype, name);
  const { icon: Icon, tone } = icons[kind];
  return (
    <span
      data-kind={kind}
      className={cn(
        'grid shrink-0 place-items-center',
        tone,
        size === 'lg' ? 'size-14 rounded-2xl' : size === 'md' ? 'size-10 rounded-xl' : 'size-8 rounded-lg',
      )}
    >
      <Icon aria-hidden="true" className={size === 'lg' ? 'size-7' : size === 'md' ? 'size-5' : 'size-4'} />
    </span>
  );
}

export function FolderIcon({ size = 'md', open = false }: { size?: 'sm' | 'md' | 'lg'; open?: boolean }) {
  return (
    <span
      className={cn(
        'grid shrink-0 place-items-center bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300',
        size === 'lg' ? 'size-14 rounded-2xl' : size === 'md' ? 'size-10 rounded-xl' : 'size-8 rounded-lg',
        open && 'ring-2 ring-brand-400',
      )}
    >
      <Folder aria-hidden="true" className={cn(size === 'lg' ? 'size-7' : size === 'md' ? 'size-5' : 'size-4', 'fill-current/20')} />
    </span>
  );
}
