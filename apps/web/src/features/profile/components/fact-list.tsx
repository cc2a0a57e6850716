import type { ReactNode } from 'react';

/** Label and value pairs in a responsive grid. */
export function FactList({ children }: { children: ReactNode }) {
  return <dl className="grid gap-5 sm:grid-cols-2">{children}</dl>;
}

export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm font-medium text-ink-muted">{term}</dt>
      <dd className="mt-1 truncate text-[0.9375rem] text-ink">{children}</dd>
    </div>
  );
}
