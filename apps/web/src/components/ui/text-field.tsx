import { CircleAlert } from 'lucide-react';
import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

export interface TextFieldProps extends Omit<ComponentProps<'input'>, 'children'> {
  /** The visible <label>; also the field's accessible name. */
  label: string;
  /** Help text under the field, replaced by the error while there is one. */
  hint?: string;
  error?: string;
  /** A control drawn inside the right edge of the input (the password toggle). */
  endAdornment?: ReactNode;
}

export function TextField({ label, hint, error, endAdornment, id, className, ...inputProps }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = error ? errorId : hint ? hintId : undefined;

  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={inputId} className="text-sm font-medium text-ink">
        {label}
      </label>
      <div className="relative">
        <input
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={cn(
            'block h-11 w-full rounded-control border bg-surface px-3.5 text-[0.9375rem] text-ink shadow-xs transition-[border-color,box-shadow] duration-150 placeholder:text-ink-subtle focus:outline-none focus:ring-4 disabled:cursor-not-allowed disabled:opacity-60',
            error
              ? 'border-danger focus:border-danger focus:ring-danger/15'
              : 'border-line-strong hover:border-ink-subtle focus:border-brand-500 focus:ring-brand-500/20',
            endAdornment ? 'pr-12' : undefined,
          )}
          {...inputProps}
        />
        {endAdornment && <div className="absolute inset-y-0 right-0 flex items-center pr-1.5">{endAdornment}</div>}
      </div>
      {error ? (
        <p id={errorId} role="alert" className="flex items-start gap-1.5 text-sm text-danger">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>{error}</span>
        </p>
      ) : hint ? (
        <p id={hintId} className="text-sm text-ink-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
