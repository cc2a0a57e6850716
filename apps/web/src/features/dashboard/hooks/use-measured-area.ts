import { useLayoutEffect, useRef, useState } from 'react';

/**
 * The width of an element and its top on the page (the virtualiser's scroll margin), kept
 * current as it or the page around it resizes. Both are 0 until measured.
 */
export function useMeasuredArea<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  const [scrollMargin, setScrollMargin] = useState(0);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      setWidth(element.clientWidth);
      setScrollMargin(element.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  return { ref, width, scrollMargin };
}
