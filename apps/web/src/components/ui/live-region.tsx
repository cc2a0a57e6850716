import { useEffect, useState } from 'react';

const listeners = new Set<(message: string) => void>();

/** Says `message` to screen readers through the mounted LiveRegion, politely (after what they are reading). */
export function announce(message: string): void {
  for (const listener of listeners) listener(message);
}

/**
 * A polite live region, visually hidden, for what happens without anything else saying it
 * (a selection grown by a key or a box). Emptied first, so the same message twice is read twice.
 */
export function LiveRegion() {
  const [message, setMessage] = useState('');
  useEffect(() => {
    let frame = 0;
    const listener = (next: string) => {
      setMessage('');
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setMessage(next));
    };
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      cancelAnimationFrame(frame);
    };
  }, []);
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only">
      {message}
    </div>
  );
}
