import { useId, type ReactNode } from 'react';
import { cn } from '../../../lib/cn';
import { SettingRow } from './setting-row';

interface SettingSwitchProps {
  label: string;
  description?: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  /** More controls beside the switch (Configure). */
  extra?: ReactNode;
}

/** An on/off setting (WAI-ARIA switch): it shows the saved value until the server accepts a change. */
export function SettingSwitch({ label, description, checked, disabled = false, onChange, extra }: SettingSwitchProps) {
  const id = useId();
  return (
    <SettingRow labelId={`${id}-label`} descriptionId={`${id}-description`} label={label} description={description}>
      <div className="flex items-center gap-3">
        {extra}
        <button
          type="button"
          role="switch"
          aria-checked={checked}
          aria-labelledby={`${id}-label`}
          aria-describedby={description ? `${id}-description` : undefined}
          disabled={disabled}
          onClick={() => onChange(!checked)}
          className={cn(
            'focus-ring relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors duration-150 disabled:cursor-not-allowed disabled:opacity-60',
            checked ? 'bg-brand-600 dark:bg-brand-500' : 'bg-line-strong',
          )}
        >
          <span
            aria-hidden="true"
            className={cn(
              'inline-block size-5 rounded-full bg-white shadow-sm transition-transform duration-150',
              checked ? 'translate-x-[1.375rem]' : 'translate-x-0.5',
            )}
          />
        </button>
      </div>
    </SettingRow>
  );
}
