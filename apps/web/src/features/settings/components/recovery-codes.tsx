import { Copy } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { notify } from '../../../lib/notify';

/** The ten one-time recovery codes, with a button that copies them all. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      notify.success('settings.twoFactor.codesCopied');
    } catch {
      notify.error('settings.twoFactor.copyFailed');
    }
  };
  return (
    <div className="flex flex-col gap-3">
      <ul
        aria-label={t('settings.twoFactor.codesLabel')}
        className="grid grid-cols-2 gap-2 rounded-control border border-line bg-surface-muted p-3 font-mono text-sm text-ink"
      >
        {codes.map((code) => (
          <li key={code} className="text-center select-all">
            {code}
          </li>
        ))}
      </ul>
      <Button variant="secondary" size="sm" className="self-start" onClick={() => void copy()}>
        <Copy aria-hidden="true" className="size-4" />
        {t('settings.twoFactor.copyCodes')}
      </Button>
    </div>
  );
}
