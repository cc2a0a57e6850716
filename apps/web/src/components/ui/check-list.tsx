import { Check } from 'lucide-react';
import { cn } from '../../lib/cn';

interface CheckListProps {
  items: readonly string[];
  /** The list's accessible name. */
  label: string;
  id?: string;
  /** Two columns from the `sm` breakpoint instead of one. */
  columns?: boolean;
  className?: string;
}

/** A list of included things, each with a check mark (plan features). */
export function CheckList({ items, label, id, columns = false, className }: CheckListProps) {
  return (
    <ul id={id} aria-label={label} className={cn('grid content-start gap-2.5', columns && 'gap-x-6 sm:grid-cols-2', className)}>
      {items.map((item) => (
        <li key={item} className="flex items-start gap-2.5 text-sm text-ink">
          <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600 dark:text-brand-400" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}
