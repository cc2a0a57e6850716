import { useCallback, useRef, useState } from 'react';

/** How far below the screen the listing's end may be for the next page to be asked for: a few screens of scrolling. */
const AHEAD_PX = 1600;

/**
 * Whether the element behind the returned ref (placed after the listing) is on screen or
 * within a few screens of it: then the listing's next page should come. `report.near` changes
 * as the page scrolls (each observer report is a new object); `isNear()` measures now, for after a render that moved the element (the
 * items of a page arriving push it down before the observer says so); `recheck()` makes a
 * stale report right.
 */
export function useNearEnd<T extends Element>() {
  // A new object per report, so that a report equal to the last one still renders again: after
  // observing anew, "near" may be reported while `near` was already (stale) true.
  const [report, setReport] = useState({ near: false });
  const element = useRef<T | null>(null);
  const observer = useRef<IntersectionObserver | null>(null);
  const ref = useCallback((next: T | null) => {
    observer.current?.disconnect();
    observer.current = null;
    element.current = next;
    // No observer (an old browser, jsdom): pages come only as the first one does.
    if (!next || typeof IntersectionObserver === 'undefined') return;
    observer.current = new IntersectionObserver((entries) => setReport({ near: entries.some((entry) => entry.isIntersecting) }), {
      rootMargin: `0px 0px ${AHEAD_PX}px 0px`,
    });
    observer.current.observe(next);
  }, []);
  const isNear = useCallback(() => {
    const box = element.current?.getBoundingClientRect();
    return box !== undefined && box.top < window.innerHeight + AHEAD_PX;
  }, []);
  // An observer reports crossings only: when `near` is stale (a page pushed the element away
  // and the page scrolled back near before the observer ran), observing anew reports the truth.
  const recheck = useCallback(() => {
    if (!element.current || !observer.current) return;
    observer.current.unobserve(element.current);
    observer.current.observe(element.current);
  }, []);
  return { ref, report, isNear, recheck };
}
