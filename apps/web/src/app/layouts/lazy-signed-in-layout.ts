import { lazyPage } from '../lazy-page';
import { withAppStrings } from '../with-app-strings';

/**
 * The signed-in shell (header, notifications, uploads, their icons) as a chunk of its own:
 * a visitor on the public pages never downloads it (docs/decisions/0031-web-delivery.md).
 */
export const SignedInLayout = lazyPage(withAppStrings(() => import('./signed-in-layout').then((m) => ({ default: m.SignedInLayout }))));
