import type { ReactNode } from 'react';

/** Label and value pairs in a responsive grid. */
export function DetailList({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-2 gap-x-4 gap-y-4">{children}</dl>;
}

export function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-ink-muted">{term}</dt>
      <dd className="mt-1 text-sm font-semibold break-words text-ink">{children}</dd>
    </div>
  );
}
