import { NARROW_SCREEN_MAX_WIDTH } from '../double-tap';
import { useMediaQuery } from './use-media-query';

/** Touch or a narrow screen: folders open on a second tap, and a tap opens a file. */
export function useTouchOrNarrow(): boolean {
  const narrowScreen = useMediaQuery(`(max-width: ${NARROW_SCREEN_MAX_WIDTH}px)`);
  const coarsePointer = useMediaQuery('(pointer: coarse)');
  return narrowScreen || coarsePointer;
}
