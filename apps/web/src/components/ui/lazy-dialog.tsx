import { type ComponentType, lazy, Suspense, useState } from 'react';

/**
 * A dialog whose code loads the first time it opens (docs/decisions/0031-web-delivery.md,
 * part 4): until then it renders nothing, so a page offering many dialogs neither downloads
 * nor runs them before its first paint. Once opened it stays mounted like any dialog and
 * closes by its own props, so closing still hands focus back. While its chunk loads (a
 * round trip, the first time only) nothing shows. `isOpen` reads the props the dialog opens
 * by; leave it out for a dialog that is only rendered while open.
 */
export function lazyDialog<Props extends object>(load: () => Promise<ComponentType<Props>>, isOpen: (props: Props) => boolean = () => true): ComponentType<Props> {
  const Dialog = lazy(async () => ({ default: await load() }));
  return function LazyDialog(props: Props) {
    const [opened, setOpened] = useState(false);
    const open = isOpen(props);
    // Adjusting state while rendering (React's documented pattern): no extra render pass.
    if (open && !opened) setOpened(true);
    if (!open && !opened) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}
