import { CopyPlus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { notify } from '../../../lib/notify';
import { type SharedItemRef, useCopyToMyFiles } from '../api/copy-to-my-files';

/**
 * "Copy to My Files" for one shared item: an icon button named after the item (it sits in a
 * row beside Download, so it stays narrow at 390 px). A refusal says why: a full quota's 507
 * text, a revoked share's 404.
 */
export function CopyToMyFilesButton({ item, name }: { item: SharedItemRef; name: string }) {
  const { t } = useTranslation();
  const copy = useCopyToMyFiles();
  const label = t('shares.copyToMine.actionNamed', { name });
  return (
    <Button
      variant="ghost"
      size="sm"
      loading={copy.isPending}
      aria-label={label}
      title={label}
      onClick={() =>
        copy.mutate(item, {
          onSuccess: () => notify.success('shares.copyToMine.done'),
          onError: (error) => notify.error('shares.copyToMine.failed', { error }),
        })
      }
    >
      {!copy.isPending && <CopyPlus aria-hidden="true" className="size-4" />}
    </Button>
  );
}
