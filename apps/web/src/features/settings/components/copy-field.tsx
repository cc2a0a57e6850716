import { Copy } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { notify } from '../../../lib/notify';

/**
 * A value to type into another device (an address, a user name, a secret): a read-only
 * field, selected whole on focus, with a button that copies it.
 */
export function CopyField({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      notify.success('appPasswords.copied', { values: { what: label } });
    } catch {
      notify.error('appPasswords.copyFailed');
    }
  };
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {label}
      </label>
      <div className="flex items-stretch gap-2">
        <input
          id={id}
          readOnly
          value={value}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
          className={cn(
            'h-11 min-w-0 flex-1 rounded-control border border-line bg-surface-muted px-3 font-mono text-sm text-ink focus:border-brand-500 focus:ring-4 focus:ring-brand-500/20 focus:outline-none',
            // The whole secret fits a phone's dialog at this size (34 monospaced characters).
            secret && 'px-2.5 text-xs sm:px-3 sm:text-[0.9375rem] sm:tracking-wide',
          )}
        />
        <Button
          variant="secondary"
          className="h-11 w-11 shrink-0 px-0 sm:w-auto sm:px-4"
          onClick={() => void copy()}
          aria-label={t('appPasswords.copyLabel', { what: label })}
        >
          <Copy aria-hidden="true" className="size-4" />
          <span className="hidden sm:inline">{t('appPasswords.copy')}</span>
        </Button>
      </div>
    </div>
  );
}
