import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileSource, ViewableFile } from '../../../lib/file-source';
import { useBytesUrl } from '../hooks/use-bytes-url';
import { openPdf } from '../pdf-document';
import { ViewerMessage } from './viewer-message';

/**
 * A PDF drawn page by page in our page by pdf.js (its own chunk, loaded for PDFs only),
 * fitted to the view, with page navigation. The viewer's arrows move between files; the
 * page buttons (and Page Up / Page Down) between pages.
 */
export function PdfView({ file, source }: { file: ViewableFile; source: FileSource }) {
  const { t } = useTranslation();
  const { url, failed, unreachable } = useBytesUrl(source, file.id);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [broken, setBroken] = useState(false);
  const [page, setPage] = useState(1);
  const [drawn, setDrawn] = useState(0);
  const [frame, setFrame] = useState({ width: 0, height: 0 });
  const frameRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    if (!url) return;
    const loading = openPdf(url);
    loading.promise.then(setPdf, () => setBroken(true));
    return () => void loading.destroy();
  }, [url]);

  useEffect(() => {
    const element = frameRef.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setFrame({ width: element.clientWidth, height: element.clientHeight }));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!pdf || !canvas || frame.width === 0) return;
    let cancelled = false;
    let cancel = () => {};
    void pdf.getPage(page).then((proxy) => {
      if (cancelled) return;
      const natural = proxy.getViewport({ scale: 1 });
      // The whole page in view, never beyond twice its natural size.
      const fit = Math.min((frame.width - 16) / natural.width, (frame.height - 24) / natural.height, 2);
      const cssWidth = Math.max(1, natural.width * fit);
      const ratio = window.devicePixelRatio || 1;
      const viewport = proxy.getViewport({ scale: (cssWidth / natural.width) * ratio });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
      const task = proxy.render({ canvas, viewport });
      cancel = () => task.cancel();
      task.promise.then(
        () => !cancelled && setDrawn(page),
        () => {},
      );
    });
    return () => {
      cancelled = true;
      cancel();
    };
  }, [pdf, page, frame]);

  if (failed || broken) return <ViewerMessage text={t(unreachable ? 'viewer.unreachable' : 'viewer.pdfFailed')} />;
  const pages = pdf?.numPages ?? 0;
  const go = (target: number) => setPage(Math.max(1, Math.min(pages, target)));
  return (
    <div
      className="flex size-full flex-col"
      onKeyDown={(event) => {
        if (event.key === 'PageDown') go(page + 1);
        else if (event.key === 'PageUp') go(page - 1);
        else return;
        event.preventDefault();
      }}
    >
      <div ref={frameRef} className="relative min-h-0 flex-1 overflow-auto px-2 py-3">
        <canvas
          ref={canvasRef}
          data-testid="pdf-page"
          data-page={drawn}
          aria-label={t('viewer.pdfPage', { page, pages })}
          role="img"
          className="mx-auto block bg-white shadow-2xl"
        />
        {drawn === 0 && (
          <div className="absolute inset-0">
            <ViewerMessage text={t('viewer.loading')} busy />
          </div>
        )}
      </div>
      {pages > 0 && (
        <nav aria-label={t('viewer.pdfPages')} className="flex shrink-0 items-center justify-center gap-2 border-t border-white/10 py-2">
          <button
            type="button"
            onClick={() => go(page - 1)}
            disabled={page <= 1}
            aria-label={t('viewer.previousPage')}
            className="focus-ring grid size-9 place-items-center rounded-full text-slate-100 hover:bg-white/15 disabled:opacity-40"
          >
            <ChevronLeft aria-hidden="true" className="size-5" />
          </button>
          <span aria-live="polite" className="min-w-24 text-center text-sm tabular-nums text-slate-200">
            {t('viewer.pageOf', { page, pages })}
          </span>
          <button
            type="button"
            onClick={() => go(page + 1)}
            disabled={page >= pages}
            aria-label={t('viewer.nextPage')}
            className="focus-ring grid size-9 place-items-center rounded-full text-slate-100 hover:bg-white/15 disabled:opacity-40"
          >
            <ChevronRight aria-hidden="true" className="size-5" />
          </button>
        </nav>
      )}
    </div>
  );
}
