import type { ReactNode } from 'react';

interface SettingRowProps {
  /** Id of the label element, for the control's aria-labelledby. */
  labelId: string;
  descriptionId?: string;
  label: string;
  description?: string;
  /** The control, at the right on wide screens and under the text on narrow ones when `stack`. */
  children: ReactNode;
  stack?: boolean;
}

/** A setting's name and explanation beside its control. */
export function SettingRow({ labelId, descriptionId, label, description, children, stack = false }: SettingRowProps) {
  return (
    <div
      className={
        stack
          ? 'flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between sm:gap-6'
          : 'flex items-center justify-between gap-4 py-4'
      }
    >
      <div className="min-w-0">
        <p id={labelId} className="text-sm font-medium text-ink">
          {label}
        </p>
        {description && (
          <p id={descriptionId} className="mt-0.5 text-sm text-ink-muted">
            {description}
          </p>
        )}
      </div>
      <div className="shrink-0">{children}</div>
    </div>
  );
}
