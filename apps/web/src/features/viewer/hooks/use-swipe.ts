import { useRef, type PointerEvent } from 'react';

/** How far a finger must travel sideways, more than up or down, to count as a swipe. */
const SWIPE_MIN_PX = 60;

/**
 * Pointer handlers that call `onSwipe('next')` for a swipe to the left and
 * `onSwipe('previous')` for one to the right. Touch and pen only: a mouse drag selects text.
 */
export function useSwipe(onSwipe: (direction: 'previous' | 'next') => void) {
  const start = useRef<{ id: number; x: number; y: number } | null>(null);
  return {
    onPointerDown: (event: PointerEvent) => {
      if (event.pointerType === 'mouse' || !event.isPrimary) return;
      start.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
    },
    onPointerUp: (event: PointerEvent) => {
      const from = start.current;
      start.current = null;
      if (!from || from.id !== event.pointerId) return;
      const dx = event.clientX - from.x;
      const dy = event.clientY - from.y;
      if (Math.abs(dx) >= SWIPE_MIN_PX && Math.abs(dx) > Math.abs(dy) * 1.5) onSwipe(dx < 0 ? 'next' : 'previous');
    },
    onPointerCancel: () => {
      start.current = null;
    },
  };
}
