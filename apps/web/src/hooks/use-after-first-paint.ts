import { startTransition, useEffect, useState } from 'react';

/**
 * False at the component's first render, true once the browser has painted it (with `ready`
 * true, when given): for a frame that must reach the screen before heavier work starts. What
 * the change renders is a transition, which React cuts into short tasks instead of one long
 * one. A hidden tab paints nothing (and runs no animation frames), so there it is true at once.
 */
export function useAfterFirstPaint(ready = true): boolean {
  const [painted, setPainted] = useState(() => document.visibilityState === 'hidden');
  useEffect(() => {
    if (painted || !ready) return;
    let task: ReturnType<typeof setTimeout> | undefined;
    // An animation frame callback runs just before the frame is painted; a task it posts, after.
    const frame = requestAnimationFrame(() => {
      task = setTimeout(() => startTransition(() => setPainted(true)));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(task);
    };
  }, [painted, ready]);
  return painted;
}
