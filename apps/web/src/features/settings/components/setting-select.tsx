import { ChevronDown } from 'lucide-react';
import { useId } from 'react';
import { SettingRow } from './setting-row';

interface SettingSelectProps<Value extends string | number> {
  label: string;
  description?: string;
  value: Value;
  options: ReadonlyArray<{ value: Value; label: string }>;
  disabled?: boolean;
  onChange: (value: Value) => void;
}

/** A choice among a few values, as a native select (keyboard and screen readers for free). */
export function SettingSelect<Value extends string | number>({
  label,
  description,
  value,
  options,
  disabled = false,
  onChange,
}: SettingSelectProps<Value>) {
  const id = useId();
  return (
    <SettingRow labelId={`${id}-label`} descriptionId={`${id}-description`} label={label} description={description} stack>
      <div className="relative w-full sm:w-56">
        <select
          aria-labelledby={`${id}-label`}
          aria-describedby={description ? `${id}-description` : undefined}
          value={String(value)}
          disabled={disabled}
          onChange={(event) => {
            const chosen = options.find((option) => String(option.value) === event.target.value);
            if (chosen) onChange(chosen.value);
          }}
          className="focus-ring block h-10 w-full appearance-none rounded-control border border-line-strong bg-surface pr-9 pl-3 text-sm text-ink shadow-xs hover:border-ink-subtle disabled:cursor-not-allowed disabled:opacity-60"
        >
          {options.map((option) => (
            <option key={option.value} value={String(option.value)}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDown aria-hidden="true" className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-ink-subtle" />
      </div>
    </SettingRow>
  );
}
