import { Navigate, Outlet } from 'react-router';
import { FullPageSpinner } from '../components/ui/spinner';
import { useSession } from '../hooks/use-session';
import { signedOutRedirectPath } from '../lib/session';

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
