import { type ComponentType, isValidElement, lazy, type ReactNode } from 'react';

type Preloadable = { preload: () => Promise<unknown> };

/**
 * React.lazy whose chunk can be asked for before the component renders (`preload`), once:
 * `preloadRouteElements` starts every chunk of the page being opened together, instead of
 * each layout's chunk only after the one around it rendered (a waterfall of round trips).
 */
export function lazyPage<Page extends ComponentType>(load: () => Promise<{ default: Page }>) {
  let loading: Promise<{ default: Page }> | undefined;
  const once = () => (loading ??= load());
  return Object.assign(lazy(once), { preload: once });
}

function isPreloadable(type: unknown): type is Preloadable {
  return (typeof type === 'object' || typeof type === 'function') && type !== null && typeof (type as Partial<Preloadable>).preload === 'function';
}

/** Starts the chunks of these route elements (the ones lazyPage made; others are in the entry already). */
export function preloadRouteElements(elements: ReactNode[]): void {
  for (const element of elements) {
    if (isValidElement(element) && isPreloadable(element.type)) void element.type.preload();
  }
}
