import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { ApiError } from '../lib/api-client';
import i18n from '../lib/i18n';

export function createQueryClient(): QueryClient {
  // TanStack Query takes the browser for online until an `offline` event: an app opened
  // without a network is offline from its start, so its requests wait rather than fail.
  onlineManager.setOnline(navigator.onLine);
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Retrying a 4xx cannot help; a network error or 5xx may pass on a second try.
        retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 2,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
        // Asked even when the browser says it is offline: the service worker may answer from
        // the device (src/service-worker/account-data.ts); only the retries wait for the network.
        networkMode: 'offlineFirst',
      },
      mutations: { retry: false },
    },
  });
}

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </I18nextProvider>
  );
}
