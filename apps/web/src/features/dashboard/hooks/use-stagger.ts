import { useEffect, useState } from 'react';
import { STAGGER_TOTAL_MS } from '../stagger';

/**
 * Whether the tiles shown under `animationKey` are still coming in with the stagger: true
 * for a while after the key changes (another folder shown), so rows scrolled into view
 * later come in without it.
 */
export function useStagger(animationKey: string): boolean {
  const [animatingKey, setAnimatingKey] = useState<string | null>(animationKey);
  useEffect(() => {
    setAnimatingKey(animationKey);
    const timer = window.setTimeout(() => setAnimatingKey(null), STAGGER_TOTAL_MS + 100);
    return () => window.clearTimeout(timer);
  }, [animationKey]);
  return animatingKey === animationKey;
}
