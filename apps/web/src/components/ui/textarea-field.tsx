import { CircleAlert } from 'lucide-react';
import { useId, type ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export interface TextareaFieldProps extends Omit<ComponentProps<'textarea'>, 'children'> {
  /** The visible <label>; also the field's accessible name. */
  label: string;
  hint?: string;
  error?: string;
}

/** A labelled multi-line field with a hint or an error under it, as TextField. */
export function TextareaField({ label, hint, error, id, className, ...textareaProps }: TextareaFieldProps) {
  const generatedId = useId();
  const fieldId = id ?? generatedId;
  const hintId = `${fieldId}-hint`;
  const errorId = `${fieldId}-error`;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={fieldId} className="text-sm font-medium text-ink">
        {label}
      </label>
      <textarea
        id={fieldId}
        rows={3}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : hint ? hintId : undefined}
        className={cn(
          'block w-full resize-y rounded-control border bg-surface px-3.5 py-2.5 text-[0.9375rem] text-ink shadow-xs transition-[border-color,box-shadow] duration-150 placeholder:text-ink-subtle focus:ring-4 focus:outline-none disabled:opacity-60',
          error
            ? 'border-danger focus:border-danger focus:ring-danger/15'
            : 'border-line-strong hover:border-ink-subtle focus:border-brand-500 focus:ring-brand-500/20',
        )}
        {...textareaProps}
      />
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
