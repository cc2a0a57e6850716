import { type ComponentType, createElement, isValidElement, lazy, type ReactNode, useState } from 'react';

type Preloadable = { preload: () => Promise<unknown> };

/**
 * React.lazy whose chunk can be asked for before the component renders (`preload`), once:
 * `preloadRouteElements` starts every chunk of the page being opened together, instead of
 * each layout's chunk only after the one around it rendered (a waterfall of round trips).
 *
 * Once the chunk is in, the page renders directly rather than through React.lazy, which
 * suspends at its first render even when its promise has long resolved (it cannot read a
 * promise's state without awaiting it). That suspension showed the spinner, and React then
 * held the page back for its Suspense throttle (300 ms after a fallback was shown): the
 * dashboard's shell and its e-mail verification banner painted that much later
 * (docs/decisions/0031-web-delivery.md, "Main-thread work").
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  let loaded: ComponentType | undefined;
  let loading: Promise<{ default: ComponentType }> | undefined;
  const once = () =>
    (loading ??= load().then((module) => {
      loaded = module.default;
      return module;
    }));
  const Lazy = lazy(once);
  function LazyPage() {
    // Fixed at mount: switching from Lazy to the page itself would remount it and lose its state.
    const [Component] = useState<ComponentType>(() => loaded ?? Lazy);
    return createElement(Component);
  }
  return Object.assign(LazyPage, { preload: once });
}

function isPreloadable(type: unknown): type is Preloadable {
  return (
    (typeof type === 'object' || typeof type === 'function') &&
    type !== null &&
    typeof (type as Partial<Preloadable>).preload === 'function'
  );
}

/** Starts the chunks of these route elements (the ones lazyPage made; others are in the entry already). */
export function preloadRouteElements(elements: ReactNode[]): void {
  for (const element of elements) {
    if (isValidElement(element) && isPreloadable(element.type)) void element.type.preload();
  }
}
