import './styles.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient, AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { setUnauthorizedHandler } from './lib/api-client';
import { i18nReady } from './lib/i18n';
import { endSession } from './lib/session';

const queryClient = createQueryClient();
const router = createAppRouter();

// Any 401 (an expired or revoked session) ends the session once and opens the sign-in page,
// without reloading the app.
setUnauthorizedHandler(() => {
  endSession(queryClient, 'unauthorized');
  void router.navigate('/login', { replace: true });
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// A failed language chunk still renders (in English, the bundled fallback).
// The first render is a transition, so React renders it in slices that yield to the browser
// between them rather than in one long task (a phone's main thread stays responsive).
void i18nReady.finally(() => {
  const root = createRoot(container);
  startTransition(() => {
    root.render(
      <StrictMode>
        <AppProviders queryClient={queryClient}>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    );
  });
});
