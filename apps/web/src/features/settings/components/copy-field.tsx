import { Copy } from 'lucide-react';
import { useId } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';

/** A value to type into another device (an address, a user name, a secret), with a button that copies it. */
export function CopyField({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(t('appPasswords.copied', { what: label }));
    } catch {
      toast.error(t('appPasswords.copyFailed'));
    }
  };
  return (
    <div className="flex flex-col gap-1.5">
      <span id={`${id}-label`} className="text-sm font-medium text-ink">
        {label}
      </span>
      <div className="flex items-stretch gap-2">
        <output
          aria-labelledby={`${id}-label`}
          className={cn(
            'min-w-0 flex-1 rounded-control border border-line bg-surface-muted px-3 py-2 font-mono text-sm break-all text-ink select-all',
            secret && 'text-base tracking-wide',
          )}
        >
          {value}
        </output>
        <Button variant="secondary" size="sm" className="h-auto shrink-0" onClick={() => void copy()} aria-label={t('appPasswords.copyLabel', { what: label })}>
          <Copy aria-hidden="true" className="size-4" />
          <span className="hidden sm:inline">{t('appPasswords.copy')}</span>
        </Button>
      </div>
    </div>
  );
}
