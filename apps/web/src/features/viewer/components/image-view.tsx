import { Minus, Plus, RotateCcw } from 'lucide-react';
import { useRef, useState, type PointerEvent, type ReactNode, type WheelEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useThumbnail } from '../../../hooks/use-thumbnail';
import { cn } from '../../../lib/cn';
import { hasThumbnail, type FileSource, type ViewableFile } from '../../../lib/file-source';
import { useBytesUrl } from '../hooks/use-bytes-url';
import { isSafeRaster } from '../renderer';
import { clampPan, FITTED, MAX_SCALE, zoomAt, ZOOM_STEP, type ZoomState } from '../zoom';
import { ViewerMessage } from './viewer-message';

interface Point {
  x: number;
  y: number;
}

/**
 * An image with zoom (buttons, + and − keys, the wheel, a double click, two fingers) and
 * pan (dragging once zoomed). The large thumbnail paints first; the original replaces it
 * once loaded when it is a raster the browser decodes safely. SVG and other formats are
 * only ever shown as the server's raster thumbnail.
 */
export function ImageView({ file, source }: { file: ViewableFile; source: FileSource }) {
  const { t } = useTranslation();
  const thumbnail = useThumbnail(source, file, 'large');
  const large = thumbnail.url;
  const safe = isSafeRaster(file.mimetype);
  const original = useBytesUrl(source, file.id, safe);
  const [originalShown, setOriginalShown] = useState(false);
  const [broken, setBroken] = useState(false);
  const [zoom, setZoom] = useState<ZoomState>(FITTED);
  const frameRef = useRef<HTMLDivElement>(null);
  const imageRef = useRef<HTMLImageElement>(null);
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<{ zoom: ZoomState; distance: number; origin: Point } | null>(null);

  const fitted = () => ({ width: imageRef.current?.offsetWidth ?? 0, height: imageRef.current?.offsetHeight ?? 0 });
  /** A point of the page as an offset from the frame's centre, where the image is anchored. */
  const fromCentre = (clientX: number, clientY: number): Point => {
    const box = frameRef.current?.getBoundingClientRect();
    return box ? { x: clientX - (box.left + box.width / 2), y: clientY - (box.top + box.height / 2) } : { x: 0, y: 0 };
  };
  const zoomBy = (factor: number, point: Point = { x: 0, y: 0 }) =>
    setZoom((current) => zoomAt(current, current.scale * factor, point, fitted()));

  const onWheel = (event: WheelEvent) => {
    if (event.deltaY === 0) return;
    zoomBy(event.deltaY < 0 ? 1.2 : 1 / 1.2, fromCentre(event.clientX, event.clientY));
  };

  const onPointerDown = (event: PointerEvent) => {
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    // Zoomed, the image takes every gesture; fitted, a one-finger swipe is the viewer's.
    if (zoom.scale > 1 || pointers.current.size > 1) {
      event.stopPropagation();
      event.currentTarget.setPointerCapture(event.pointerId);
    }
    const [a, b] = [...pointers.current.values()];
    gesture.current =
      a && b ? { zoom, distance: Math.hypot(a.x - b.x, a.y - b.y), origin: fromCentre((a.x + b.x) / 2, (a.y + b.y) / 2) } : null;
  };

  const onPointerMove = (event: PointerEvent) => {
    const last = pointers.current.get(event.pointerId);
    if (!last) return;
    const now = { x: event.clientX, y: event.clientY };
    pointers.current.set(event.pointerId, now);
    const [a, b] = [...pointers.current.values()];
    if (a && b && gesture.current) {
      const start = gesture.current;
      setZoom(
        zoomAt(start.zoom, (start.zoom.scale * Math.hypot(a.x - b.x, a.y - b.y)) / Math.max(1, start.distance), start.origin, fitted()),
      );
    } else if (zoom.scale > 1) {
      setZoom((current) => clampPan({ ...current, x: current.x + now.x - last.x, y: current.y + now.y - last.y }, fitted()));
    }
  };

  const onPointerEnd = (event: PointerEvent) => {
    pointers.current.delete(event.pointerId);
    gesture.current = null;
  };

  const withoutThumbnail = !hasThumbnail(file) || (thumbnail.settled && !large);
  // Offline, the thumbnail the device keeps stands in for an original it cannot reach.
  if (original.unreachable && withoutThumbnail) return <ViewerMessage text={t('viewer.unreachable')} />;
  if (broken || ((!safe || original.failed) && withoutThumbnail)) return <ViewerMessage text={t('viewer.imageFailed')} />;
  const src = originalShown || !large ? original.url : large;
  return (
    <div className="relative flex size-full flex-col">
      <div
        ref={frameRef}
        data-testid="image-frame"
        // Focusable so that + and − zoom from the keyboard.
        tabIndex={0}
        role="group"
        aria-label={t('viewer.imageFrame')}
        onWheel={onWheel}
        onDoubleClick={(event) => (zoom.scale > 1 ? setZoom(FITTED) : zoomBy(2, fromCentre(event.clientX, event.clientY)))}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onKeyDown={(event) => {
          if (event.key === '+' || event.key === '=') zoomBy(ZOOM_STEP);
          else if (event.key === '-') zoomBy(1 / ZOOM_STEP);
          else if (event.key === '0') setZoom(FITTED);
        }}
        className={cn(
          'focus-ring relative flex min-h-0 flex-1 items-center justify-center overflow-hidden',
          zoom.scale > 1 ? 'cursor-grab touch-none' : 'cursor-zoom-in touch-pan-y',
        )}
      >
        {src && (
          <img
            ref={imageRef}
            src={src}
            alt={file.originalName}
            draggable={false}
            data-zoom={zoom.scale}
            style={{ transform: `translate(${zoom.x}px, ${zoom.y}px) scale(${zoom.scale})` }}
            // Absolutely placed: the frame's size is definite, so the picture fits inside it.
            className="absolute inset-0 m-auto max-h-full max-w-full select-none"
            onError={() => setBroken(true)}
          />
        )}
        {/* Loads the original out of sight; it takes the thumbnail's place once decoded. */}
        {large && safe && original.url && !originalShown && (
          <img src={original.url} alt="" aria-hidden="true" className="hidden" onLoad={() => setOriginalShown(true)} />
        )}
        {!src && <ViewerMessage text={t('viewer.loading')} busy />}
      </div>
      <div className="pointer-events-none absolute inset-x-0 bottom-4 flex justify-center">
        <div className="pointer-events-auto flex items-center gap-1 rounded-full bg-slate-900/80 p-1 shadow-lg ring-1 ring-white/10 backdrop-blur">
          <ZoomButton label={t('viewer.zoomOut')} onClick={() => zoomBy(1 / ZOOM_STEP)} disabled={zoom.scale <= 1}>
            <Minus aria-hidden="true" className="size-4" />
          </ZoomButton>
          <span aria-live="polite" className="min-w-14 text-center text-xs font-semibold tabular-nums text-slate-200">
            {Math.round(zoom.scale * 100)}%
          </span>
          <ZoomButton label={t('viewer.zoomIn')} onClick={() => zoomBy(ZOOM_STEP)} disabled={zoom.scale >= MAX_SCALE}>
            <Plus aria-hidden="true" className="size-4" />
          </ZoomButton>
          <ZoomButton label={t('viewer.zoomReset')} onClick={() => setZoom(FITTED)} disabled={zoom.scale === 1}>
            <RotateCcw aria-hidden="true" className="size-4" />
          </ZoomButton>
        </div>
      </div>
    </div>
  );
}

function ZoomButton({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
      className="focus-ring grid size-9 place-items-center rounded-full text-slate-100 transition-colors hover:bg-white/15 disabled:opacity-40"
    >
      {children}
    </button>
  );
}
