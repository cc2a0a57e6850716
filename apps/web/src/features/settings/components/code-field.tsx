import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/ui/text-field';

interface CodeFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** A recovery code is accepted too (turning two-factor off). */
  allowRecovery?: boolean;
  ref?: Ref<HTMLInputElement>;
}

/** The one-time code from the authenticator app. */
export function CodeField({ value, onChange, error, allowRecovery = false, ref }: CodeFieldProps) {
  const { t } = useTranslation();
  return (
    <TextField
      ref={ref}
      label={t('settings.twoFactor.code')}
      hint={allowRecovery ? t('settings.twoFactor.codeOrRecoveryHint') : t('settings.twoFactor.codeHint')}
      name="code"
      autoComplete="one-time-code"
      inputMode={allowRecovery ? 'text' : 'numeric'}
      autoCapitalize="none"
      spellCheck={false}
      maxLength={32}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
    />
  );
}
