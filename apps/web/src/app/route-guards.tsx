import { Navigate, Outlet } from 'react-router';
import { FullPageSpinner } from '../components/ui/spinner';
import { useSession } from '../hooks/use-session';
import { signedOutRedirectPath } from '../lib/session';
import { NotFoundPage } from './not-found-page';

/** Signed-in pages: spinner while the session loads, sign-in page when signed out. */
export function RequireAuth() {
  const { status } = useSession();
  if (status === 'loading') return <FullPageSpinner />;
  if (status === 'signedOut') return <Navigate to={signedOutRedirectPath()} replace />;
  return <Outlet />;
}

/** Pages for visitors (landing, sign-in, registration): the dashboard when signed in. */
export function RequireGuest() {
  const { status } = useSession();
  if (status === 'loading') return <FullPageSpinner />;
  if (status === 'signedIn') return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}

/** The operator console: operators only; anyone else gets the not-found page (the API answers 403 anyway). */
export function RequireAdmin() {
  const { user } = useSession();
  if (user?.role !== 'admin') return <NotFoundPage />;
  return <Outlet />;
}
