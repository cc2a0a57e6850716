import { ChevronLeft, ChevronRight, Download, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { notify } from '../../../lib/notify';
import { useTranslation } from 'react-i18next';
import { trapTab } from '../../../components/ui/focus-trap';
import { useContainedFocus } from '../../../components/ui/use-contained-focus';
import { cn } from '../../../lib/cn';
import type { FileSource, FileViewerProps, ViewableFile, ViewerAction } from '../../../lib/file-source';
import { useSwipe } from '../hooks/use-swipe';
import { neighbours, successorOf } from '../neighbours';
import { chooseRenderer } from '../renderer';
import { CardView } from './card-view';
import { ImageView } from './image-view';
import { MediaView } from './media-view';
import { TextView } from './text-view';
import { ViewerMessage } from './viewer-message';

// pdf.js is large: its chunk loads the first time a PDF is opened.
const PdfView = lazy(() => import('./pdf-view').then((m) => ({ default: m.PdfView })));

/** Keys that belong to the control they are pressed in, not to the viewer. */
const OWN_KEYS = 'input, textarea, select, video, audio, [role="slider"]';

/**
 * The full-screen viewer (a modal dialog): the file drawn by its renderer, its name and
 * place in the folder, Download and the actions the page allows, previous and next by the
 * arrow keys, buttons and swipes. Escape closes it; focus stays inside while it is open.
 */
export function FileViewer({ files, fileId, source, onMove, onClose, renderActions }: FileViewerProps) {
  const { t } = useTranslation();
  const dialogRef = useRef<HTMLDivElement>(null);
  const file = files.find((entry) => entry.id === fileId) ?? null;
  const { previous, next, index } = neighbours(files, fileId);
  // The file shown left the list (deleted, moved): go on with the one that took its place.
  const shownIn = useRef(files);
  useEffect(() => {
    const before = shownIn.current;
    shownIn.current = files;
    if (files.some((entry) => entry.id === fileId) || !before.some((entry) => entry.id === fileId)) return;
    const successor = successorOf(before, files, fileId);
    if (successor) onMove(successor.id);
    else onClose();
  }, [files, fileId, onMove, onClose]);
  const swipe = useSwipe((direction) => {
    const target = direction === 'next' ? next : previous;
    if (target) onMove(target.id);
  });

  useContainedFocus(dialogRef, true, onClose);

  useEffect(() => {
    // The double click that opened the viewer also selected the word under it: the viewer
    // opens with nothing selected (issue 36), not with its title or text painted blue.
    window.getSelection()?.removeAllRanges();
    dialogRef.current?.focus();
    // The page behind must not scroll under the viewer.
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
    };
  }, []);

  // A source without downloads (a view-only link) gets no Download anywhere in the viewer.
  const save = source.download;
  const download = save
    ? (target: ViewableFile) => {
        save(target.id).then(
          () => notify.success('viewer.downloadStarted'),
          () => notify.error('viewer.downloadFailed'),
        );
      }
    : undefined;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Keys in the viewer never reach the page behind (the grid's own shortcuts).
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
      return;
    }
    if (dialogRef.current) trapTab(event, dialogRef.current);
    if ((event.target as HTMLElement).closest(OWN_KEYS)) return;
    const target = event.key === 'ArrowRight' ? next : event.key === 'ArrowLeft' ? previous : undefined;
    if (target === undefined) return;
    event.preventDefault();
    if (target) onMove(target.id);
  };

  const toolbar = (actions: ViewerAction[], dialog?: ReactNode) => (
    <>
      {actions.map(({ id, label, icon: Icon, onSelect, tone }) => (
        <ToolbarButton key={id} label={label} onClick={() => onSelect?.()} danger={tone === 'danger'}>
          {Icon && <Icon aria-hidden="true" className="size-5" />}
        </ToolbarButton>
      ))}
      {dialog}
    </>
  );

  return createPortal(
    <div
      ref={dialogRef}
      role="dialog"
      aria-modal="true"
      aria-label={file ? t('viewer.label', { name: file.originalName }) : t('viewer.labelNoFile')}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      className="cv-fade-in fixed inset-0 z-50 flex flex-col bg-slate-950 text-slate-100 outline-none"
    >
      {/* Not <header>: inside a dialog it would be a second banner landmark beside the page's own. */}
      {/* Not selectable: a quick double tap or click on the bar must not paint the name blue. */}
      <div className="flex shrink-0 items-center gap-2 border-b border-white/10 px-2 py-2 select-none sm:px-4">
        <ToolbarButton label={t('viewer.close')} onClick={onClose}>
          <X aria-hidden="true" className="size-5" />
        </ToolbarButton>
        <div className="min-w-0 flex-1 px-1">
          <h2 className="truncate text-sm font-semibold sm:text-base" title={file?.originalName}>
            {file?.originalName ?? t('viewer.labelNoFile')}
          </h2>
          {index >= 0 && (
            <p className="text-xs text-slate-400 tabular-nums">{t('viewer.position', { index: index + 1, count: files.length })}</p>
          )}
        </div>
        {file && (
          <div className="flex items-center gap-1">
            {download && (
              <ToolbarButton label={t('viewer.download')} onClick={() => download(file)}>
                <Download aria-hidden="true" className="size-5" />
              </ToolbarButton>
            )}
            {renderActions?.(file, toolbar)}
          </div>
        )}
      </div>
      <div className="relative flex min-h-0 flex-1 touch-pan-y" {...swipe}>
        {file ? (
          // Keyed by the content too: new bytes (a version, an upload over it, elsewhere) are fetched and drawn anew.
          <div key={`${file.id}:${file.contentTag}`} className="min-h-0 min-w-0 flex-1">
            <Renderer file={file} source={source} onDownload={download && (() => download(file))} />
          </div>
        ) : (
          <ViewerMessage text={t('viewer.missing')} />
        )}
        <NavButton side="left" label={t('viewer.previous')} target={previous} onMove={onMove} />
        <NavButton side="right" label={t('viewer.next')} target={next} onMove={onMove} />
      </div>
    </div>,
    document.body,
  );
}

function Renderer({ file, source, onDownload }: { file: ViewableFile; source: FileSource; onDownload?: () => void }) {
  const { t } = useTranslation();
  const renderer = chooseRenderer(file);
  switch (renderer) {
    case 'image':
      return <ImageView file={file} source={source} />;
    case 'pdf':
      return (
        <Suspense fallback={<ViewerMessage text={t('viewer.loading')} busy />}>
          <PdfView file={file} source={source} />
        </Suspense>
      );
    case 'video':
    case 'audio':
      return <MediaView file={file} source={source} kind={renderer} />;
    case 'markdown':
    case 'text':
      return <TextView file={file} source={source} markdown={renderer === 'markdown'} />;
    case 'card':
      return <CardView file={file} onDownload={onDownload} />;
  }
}

function NavButton({
  side,
  label,
  target,
  onMove,
}: {
  side: 'left' | 'right';
  label: string;
  target: ViewableFile | null;
  onMove: (id: string) => void;
}) {
  if (!target) return null;
  const Icon = side === 'left' ? ChevronLeft : ChevronRight;
  return (
    <button
      type="button"
      aria-label={label}
      title={`${label}: ${target.originalName}`}
      onClick={() => onMove(target.id)}
      className={cn(
        // Visible at every width: on a phone they are the way to the next file beside a swipe.
        'focus-ring absolute top-1/2 grid size-11 -translate-y-1/2 place-items-center rounded-full bg-slate-900/70 text-slate-100 shadow-lg ring-1 ring-white/10 backdrop-blur transition-colors select-none hover:bg-slate-800',
        side === 'left' ? 'left-2 sm:left-3' : 'right-2 sm:right-3',
      )}
    >
      <Icon aria-hidden="true" className="size-6" />
    </button>
  );
}

function ToolbarButton({
  label,
  onClick,
  danger = false,
  className,
  children,
}: {
  label: string;
  onClick: () => void;
  danger?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      className={cn(
        'focus-ring grid size-10 shrink-0 place-items-center rounded-full text-slate-200 transition-colors hover:bg-white/10 hover:text-white',
        danger && 'hover:bg-red-500/20 hover:text-red-300',
        className,
      )}
    >
      {children}
    </button>
  );
}
