import { History } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileItem } from '@cloudvault/contract/files';
import type { DropdownMenuItem } from '../../../components/ui/dropdown-menu';
import { lazyDialog } from '../../../components/ui/lazy-dialog';

// The dialog loads when first opened: every file's menu offers it, few open it.
const VersionHistoryModal = lazyDialog(() => import('./version-history-modal').then((m) => m.VersionHistoryModal));

interface VersionHistoryMenuProps {
  file: FileItem;
  children: (history: { menuItems: DropdownMenuItem[]; dialog: ReactNode }) => ReactNode;
}

/**
 * The 'Version history' entry of a file's menu and the dialog it opens, handed to
 * `children`, so a menu gains the feature with one entry and one element.
 */
export function VersionHistoryMenu({ file, children }: VersionHistoryMenuProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return children({
    menuItems: [{ id: 'versions', label: t('versions.menuEntry'), icon: History, onSelect: () => setOpen(true) }],
    dialog: open && <VersionHistoryModal file={file} onClose={() => setOpen(false)} />,
  });
}
