import type { ReactNode } from 'react';

interface AuthCardProps {
  title: string;
  subtitle: ReactNode;
  children: ReactNode;
  footer: ReactNode;
}

/** The frame shared by the sign-in and registration screens. */
export function AuthCard({ title, subtitle, children, footer }: AuthCardProps) {
  return (
    <div className="w-full">
      <div className="rounded-card border border-line bg-surface px-5 py-7 shadow-card sm:px-8 sm:py-9">
        <div className="mb-7 text-center">
          <h1 className="text-2xl font-bold tracking-tight text-ink">{title}</h1>
          <p className="mt-2 text-sm text-ink-muted">{subtitle}</p>
        </div>
        {children}
      </div>
      <p className="mt-6 text-center text-sm text-ink-muted">{footer}</p>
    </div>
  );
}
