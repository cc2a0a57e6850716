import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { FullPageSpinner } from '../components/ui/spinner';
import { useSession } from '../hooks/use-session';
import { rememberAfterSignIn, takeAfterSignIn } from '../lib/after-sign-in';
import { signedOutRedirectPath } from '../lib/session';
import { SHARE_PAGE } from '../lib/shared-in';
import { NotFoundPage } from './not-found-page';

/**
 * Signed-in pages: spinner while the session loads, sign-in page when signed out. Files
 * shared into the app before signing in (/share?batch=…) are opened again once signed in.
 */
export function RequireAuth() {
  const { status } = useSession();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (status !== 'signedIn') return;
    const address = takeAfterSignIn();
    if (address && address !== pathname + search) void navigate(address, { replace: true });
  }, [status, pathname, search, navigate]);
  if (status === 'loading') return <FullPageSpinner />;
  if (status === 'signedOut') {
    if (pathname === SHARE_PAGE && search !== '') rememberAfterSignIn(pathname + search);
    return <Navigate to={signedOutRedirectPath()} replace />;
  }
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
