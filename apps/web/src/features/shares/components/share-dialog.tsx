import type { PlanId } from '@cloudvault/contract/plans';
import { linkOptionsFor } from '../link-options';
import type { ShareTarget } from '../share-item';
import { ShareItemModal } from './share-item-modal';

/** The share dialog of a folder or a file, with what the user's plan offers for links; nothing while `item` is null. */
export function ShareDialog({ item, plan, onClose }: { item: ShareTarget | null; plan: PlanId | undefined; onClose: () => void }) {
  return <ShareItemModal item={item} options={linkOptionsFor(plan)} onClose={onClose} />;
}
