import { useEffect, useState, useSyncExternalStore } from 'react';
import toast, { ToastBar, Toaster, useToasterStore, type Toast } from 'react-hot-toast';
import { newestShown } from './toast-limit';

/** Toast look from the design tokens (react-hot-toast styles inline, so classes would lose). */
const toastStyle = {
  background: 'var(--cv-surface)',
  color: 'var(--cv-ink)',
  border: '1px solid var(--cv-line)',
  borderRadius: 'var(--radius-control)',
  boxShadow: 'var(--shadow-popover)',
  fontSize: '0.875rem',
  lineHeight: '1.35',
  padding: '0.625rem 0.875rem',
  maxWidth: '24rem',
};

/** docs/product.md: the narrow-screen threshold. */
const PHONE = '(max-width: 767px)';

/**
 * How far up from the viewport's bottom the highest element marked `data-toast-floor` reaches
 * (the uploads panel), so that toasts sit above it rather than over its buttons; 0 without one.
 */
function useToastFloor(enabled: boolean): number {
  const [floor, setFloor] = useState(0);
  useEffect(() => {
    if (!enabled) {
      setFloor(0);
      return;
    }
    const measure = () => {
      const tops = [...document.querySelectorAll('[data-toast-floor]')].map((element) => element.getBoundingClientRect().top);
      setFloor(tops.length === 0 ? 0 : Math.max(0, Math.round(window.innerHeight - Math.min(...tops))));
    };
    measure();
    // The panel comes and goes, and grows with its rows.
    const observer = new MutationObserver(measure);
    observer.observe(document.body, { childList: true, subtree: true });
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [enabled]);
  return floor;
}

function usePhone(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(PHONE);
      query.addEventListener('change', changed);
      return () => query.removeEventListener('change', changed);
    },
    () => window.matchMedia(PHONE).matches,
  );
}

/**
 * The toasts (issue 36: four toasts stacked over the storage card hid its Upgrade button, the
 * welcome toast covered the verification banner's Resend): at the bottom, away from the header,
 * the banner and the storage card, which all sit at the top. Bottom-left on a desktop, as the
 * uploads panel holds the bottom-right corner; bottom-centre on a phone, above the home
 * indicator and the uploads panel. At most three show, newest nearest the edge; an older one
 * goes as a fourth arrives (docs/decisions/0055-toasts.md). Durations: docs/product.md#toasts.
 */
export default function ToastStack() {
  const phone = usePhone();
  // On a desktop the uploads panel is bottom-right and the toasts bottom-left; on a phone both are at the bottom.
  const floor = useToastFloor(phone);
  const { toasts } = useToasterStore();
  const shown = newestShown(toasts);

  useEffect(() => {
    for (const item of toasts) if (item.visible && !shown.has(item.id)) toast.dismiss(item.id);
  }, [toasts, shown]);

  return (
    <Toaster
      position={phone ? 'bottom-center' : 'bottom-left'}
      containerStyle={
        phone ? { bottom: `calc(0.75rem + ${floor}px + env(safe-area-inset-bottom))`, left: 12, right: 12 } : { bottom: 20, left: 20 }
      }
      toastOptions={{
        duration: 4000,
        style: toastStyle,
        success: { duration: 3000 },
        error: { duration: 5000 },
      }}
    >
      {/* One over the limit is dismissed by the effect above and not drawn until then; one
          leaving plays its exit, marked so that tests count only the toasts showing. */}
      {(item: Toast) =>
        shown.has(item.id) || !item.visible ? (
          <div data-toast={item.visible ? 'shown' : 'leaving'}>
            <ToastBar toast={item} />
          </div>
        ) : (
          <></>
        )
      }
    </Toaster>
  );
}
