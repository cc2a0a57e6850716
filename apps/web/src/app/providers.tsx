import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'react-hot-toast';
import { I18nextProvider } from 'react-i18next';
import { ApiError } from '../lib/api-client';
import i18n from '../lib/i18n';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Retrying a 4xx cannot help; a network error or 5xx may pass on a second try.
        retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 2,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}

/** Toast look from the design tokens (react-hot-toast styles inline, so classes would lose). */
const toastStyle = {
  background: 'var(--cv-surface)',
  color: 'var(--cv-ink)',
  border: '1px solid var(--cv-line)',
  borderRadius: 'var(--radius-control)',
  boxShadow: 'var(--shadow-popover)',
  fontSize: '0.875rem',
  lineHeight: '1.35',
  padding: '0.625rem 0.875rem',
  maxWidth: '24rem',
};

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        {children}
        {/* docs/product.md#toasts: top-right; 4 s default, 3 s success, 5 s error; at most
            20 at once, which is react-hot-toast's built-in limit. */}
        <Toaster
          position="top-right"
          containerStyle={{ top: 76, right: 16 }}
          toastOptions={{
            duration: 4000,
            style: toastStyle,
            success: { duration: 3000 },
            error: { duration: 5000 },
          }}
        />
      </QueryClientProvider>
    </I18nextProvider>
  );
}
