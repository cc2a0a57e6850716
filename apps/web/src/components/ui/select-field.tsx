import { ChevronDown } from 'lucide-react';
import { useId, type ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export interface SelectFieldProps<Value extends string> extends Omit<ComponentProps<'select'>, 'value' | 'onChange' | 'children'> {
  /** The visible <label>; also the field's accessible name. */
  label: string;
  value: Value;
  options: ReadonlyArray<{ value: Value; label: string }>;
  onChange: (value: Value) => void;
}

/** A labelled native select (keyboard and screen readers for free), styled as the text fields. */
export function SelectField<Value extends string>({
  label,
  value,
  options,
  onChange,
  id,
  className,
  ...selectProps
}: SelectFieldProps<Value>) {
  const generatedId = useId();
  const selectId = id ?? generatedId;
  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>
      <label htmlFor={selectId} className="text-sm font-medium text-ink">
        {label}
      </label>
      <div className="relative">
        <select
          id={selectId}
          value={value}
          onChange={(event) => {
            const chosen = options.find((option) => option.value === event.target.value);
            if (chosen) onChange(chosen.value);
          }}
          className="block h-11 w-full appearance-none rounded-control border border-line-strong bg-surface pr-9 pl-3 text-[0.9375rem] text-ink shadow-xs transition-[border-color,box-shadow] duration-150 hover:border-ink-subtle focus:border-brand-500 focus:ring-4 focus:ring-brand-500/20 focus:outline-none disabled:cursor-not-allowed disabled:opacity-60"
          {...selectProps}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDown aria-hidden="true" className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-ink-subtle" />
      </div>
    </div>
  );
}
