import type { PlanId } from '@cloudvault/contract/plans';
import { linkOptionsFor } from '../link-options';
import type { ShareTarget } from '../share-item';
import { ShareFileModal } from './share-file-modal';
import { ShareFolderModal } from './share-folder-modal';

/** The share dialog of a folder or a file, with what the user's plan offers for links; nothing while `item` is null. */
export function ShareDialog({ item, plan, onClose }: { item: ShareTarget | null; plan: PlanId | undefined; onClose: () => void }) {
  const options = linkOptionsFor(plan);
  return (
    <>
      <ShareFolderModal item={item?.kind === 'folder' ? item : null} options={options} onClose={onClose} />
      <ShareFileModal item={item?.kind === 'file' ? item : null} options={options} onClose={onClose} />
    </>
  );
}
