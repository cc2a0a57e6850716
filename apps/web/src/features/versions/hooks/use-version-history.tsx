import { History } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileItem } from '@cloudvault/contract/files';
import type { DropdownMenuItem } from '../../../components/ui/dropdown-menu';
import { VersionHistoryModal } from '../components/version-history-modal';

/**
 * The 'Version history' entry of a file's menu and the dialog it opens, so a menu gains
 * the feature with one entry and one element. Folders (null) get neither.
 */
export function useVersionHistory(file: FileItem | null): { menuItems: DropdownMenuItem[]; dialog: ReactNode } {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!file) return { menuItems: [], dialog: null };
  return {
    menuItems: [{ id: 'versions', label: t('versions.menuEntry'), icon: History, onSelect: () => setOpen(true) }],
    dialog: open && <VersionHistoryModal file={file} onClose={() => setOpen(false)} />,
  };
}
