import { type ComponentType, lazy, Suspense, useLayoutEffect, useState } from 'react';

/**
 * A dialog whose code loads the first time it opens (docs/decisions/0031-web-delivery.md,
 * "Bytes"): until then it renders nothing, so a page offering many dialogs neither downloads
 * nor runs them before its first paint. Once opened it stays mounted like any dialog and
 * closes by its own props, so closing still hands focus back. While its chunk loads (a
 * round trip, the first time only) nothing shows. `isOpen` reads the props the dialog opens
 * by; leave it out for a dialog that is only rendered while open.
 */
export function lazyDialog<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  isOpen: (props: Props) => boolean = () => true,
): ComponentType<Props> {
  const Dialog = lazy(async () => ({ default: await load() }));
  return function LazyDialog(props: Props) {
    // What had focus when the dialog was first asked for; undefined until then.
    const [opener, setOpener] = useState<HTMLElement | null | undefined>(undefined);
    // Adjusting state while rendering (React's documented pattern): no extra render pass.
    if (isOpen(props) && opener === undefined) setOpener(document.activeElement instanceof HTMLElement ? document.activeElement : null);
    if (opener === undefined) return null;
    return (
      <Suspense fallback={null}>
        <RefocusOpener opener={opener} />
        <Dialog {...props} />
      </Suspense>
    );
  };
}

/**
 * Focus may fall to <body> while the chunk loads (the menu that opened the dialog closes):
 * the opener gets it back before the dialog's own effect notes where to return it on close.
 */
function RefocusOpener({ opener }: { opener: HTMLElement | null }) {
  useLayoutEffect(() => {
    if (document.activeElement === document.body && opener?.isConnected) opener.focus();
  }, [opener]);
  return null;
}
