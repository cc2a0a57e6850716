import type { ComponentType } from 'react';
import { loadAppStrings } from '../lib/i18n';

/**
 * For React.lazy: a page or layout outside the public ones, whose chunk and the English
 * strings it needs (`loadAppStrings`) arrive together, so it never renders a key.
 */
export function withAppStrings<Page extends ComponentType>(load: () => Promise<{ default: Page }>) {
  return () => Promise.all([load(), loadAppStrings()]).then(([module]) => module);
}
