import { isValidElement } from 'react';
import { createBrowserRouter, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { AuthLayout } from './layouts/auth-layout';
import { SignedInLayout } from './layouts/lazy-signed-in-layout';
import { PublicLayout } from './layouts/public-layout';
import { RootLayout } from './layouts/root-layout';
import { SessionAwareLayout } from './layouts/session-aware-layout';
import { getToken } from '../lib/api-client';
import { lazyPage, preloadRouteElements } from './lazy-page';
import { RouteError } from './route-error';
import { RequireAdmin, RequireAuth, RequireGuest } from './route-guards';
import { withAppStrings } from './with-app-strings';

// Every page is its own chunk, loaded when first visited. A page that shows other
// features gets them from its route in ./routes: features never import one another.
// The public pages use only the English strings bundled with the entry; the others load
// the rest with their chunk (withAppStrings).
const LandingPage = lazyPage(() => import('../features/landing/components/landing-page').then((m) => ({ default: m.LandingPage })));
const LoginRoute = lazyPage(() => import('./routes/login-route').then((m) => ({ default: m.LoginRoute })));
const RegisterRoute = lazyPage(() => import('./routes/register-route').then((m) => ({ default: m.RegisterRoute })));
const SingleSignOnLandingPage = lazyPage(() =>
  import('../features/single-sign-on/components/single-sign-on-landing-page').then((m) => ({ default: m.SingleSignOnLandingPage })),
);
const ForgotPasswordPage = lazyPage(() =>
  import('../features/auth/components/forgot-password-page').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazyPage(() =>
  import('../features/auth/components/reset-password-page').then((m) => ({ default: m.ResetPasswordPage })),
);
const VerifyEmailPage = lazyPage(() =>
  import('../features/auth/components/verify-email-page').then((m) => ({ default: m.VerifyEmailPage })),
);
const PricingPage = lazyPage(() => import('../features/pricing/components/pricing-page').then((m) => ({ default: m.PricingPage })));
const DashboardRoute = lazyPage(withAppStrings(() => import('./routes/dashboard-route').then((m) => ({ default: m.DashboardRoute }))));
const ProfilePage = lazyPage(
  withAppStrings(() => import('../features/profile/components/profile-page').then((m) => ({ default: m.ProfilePage }))),
);
const SubscriptionRoute = lazyPage(
  withAppStrings(() => import('./routes/subscription-route').then((m) => ({ default: m.SubscriptionRoute }))),
);
const SettingsRoute = lazyPage(withAppStrings(() => import('./routes/settings-route').then((m) => ({ default: m.SettingsRoute }))));
const TrashPage = lazyPage(withAppStrings(() => import('../features/trash/components/trash-page').then((m) => ({ default: m.TrashPage }))));
const PublicShareRoute = lazyPage(
  withAppStrings(() => import('./routes/public-share-route').then((m) => ({ default: m.PublicShareRoute }))),
);
const SharedWithMeRoute = lazyPage(
  withAppStrings(() => import('./routes/shared-with-me-route').then((m) => ({ default: m.SharedWithMeRoute }))),
);
const StarredRoute = lazyPage(withAppStrings(() => import('./routes/starred-route').then((m) => ({ default: m.StarredRoute }))));
const RecentRoute = lazyPage(withAppStrings(() => import('./routes/recent-route').then((m) => ({ default: m.RecentRoute }))));
const ShareRoute = lazyPage(withAppStrings(() => import('./routes/share-route').then((m) => ({ default: m.ShareRoute }))));
const SharesPage = lazyPage(
  withAppStrings(() => import('../features/shares/components/shares-page').then((m) => ({ default: m.SharesPage }))),
);
const SuccessPage = lazyPage(
  withAppStrings(() => import('../features/success/components/success-page').then((m) => ({ default: m.SuccessPage }))),
);
const AdminLayout = lazyPage(
  withAppStrings(() => import('../features/admin/components/admin-layout').then((m) => ({ default: m.AdminLayout }))),
);
const AdminOverviewPage = lazyPage(
  withAppStrings(() => import('../features/admin/components/overview-page').then((m) => ({ default: m.OverviewPage }))),
);
const AdminUsersPage = lazyPage(
  withAppStrings(() => import('../features/admin/components/users-page').then((m) => ({ default: m.UsersPage }))),
);
const AdminUserDetailPage = lazyPage(
  withAppStrings(() => import('../features/admin/components/user-detail-page').then((m) => ({ default: m.UserDetailPage }))),
);
const AdminAuditPage = lazyPage(
  withAppStrings(() => import('../features/admin/components/audit-page').then((m) => ({ default: m.AuditPage }))),
);

/** The route table of docs/product.md#routes, /trash and sharing's pages included. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        // Visitors only; signed-in users go to /dashboard.
        element: <RequireGuest />,
        children: [
          { element: <PublicLayout />, children: [{ index: true, element: <LandingPage /> }] },
          {
            element: <AuthLayout />,
            children: [
              { path: 'login', element: <LoginRoute /> },
              { path: 'register', element: <RegisterRoute /> },
              { path: 'forgot-password', element: <ForgotPasswordPage /> },
            ],
          },
        ],
      },
      {
        // The links mailed to an account's address open signed in or not.
        element: <AuthLayout />,
        children: [
          { path: 'verify-email', element: <VerifyEmailPage /> },
          { path: 'reset-password', element: <ResetPasswordPage /> },
          // Where a sign-in at the single sign-on provider lands; it signs in, so it cannot wait behind RequireGuest.
          { path: 'login/single-sign-on', element: <SingleSignOnLandingPage /> },
        ],
      },
      {
        // Everybody.
        element: <SessionAwareLayout />,
        children: [
          { path: 'pricing', element: <PricingPage /> },
          // A share link opens for anyone who has it (docs/product.md#public-share-page).
          { path: 's/:token', element: <PublicShareRoute /> },
        ],
      },
      {
        // Signed-in users only; visitors go to /login.
        element: <RequireAuth />,
        children: [
          {
            element: <SignedInLayout />,
            children: [
              { path: 'dashboard', element: <DashboardRoute /> },
              { path: 'trash', element: <TrashPage /> },
              { path: 'shared', element: <SharedWithMeRoute /> },
              { path: 'shares', element: <SharesPage /> },
              { path: 'starred', element: <StarredRoute /> },
              { path: 'recent', element: <RecentRoute /> },
              // Where the phone's share sheet lands (the manifest's share target): the files shared in, to upload.
              { path: 'share', element: <ShareRoute /> },
              { path: 'profile', element: <ProfilePage /> },
              { path: 'subscription', element: <SubscriptionRoute /> },
              { path: 'settings', element: <SettingsRoute /> },
              { path: 'success', element: <SuccessPage /> },
              {
                // The operator console: operators only (RequireAdmin), every page its own chunk.
                path: 'admin',
                element: <RequireAdmin />,
                children: [
                  {
                    element: <AdminLayout />,
                    children: [
                      { index: true, element: <AdminOverviewPage /> },
                      { path: 'users', element: <AdminUsersPage /> },
                      { path: 'users/:userId', element: <AdminUserDetailPage /> },
                      { path: 'audit', element: <AdminAuditPage /> },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/**
 * The page being opened: its layouts' and its own chunks load at once, alongside the
 * session check, rather than one after the other as each renders. Not past a guard that
 * will redirect (a visitor on a signed-in page, a stored session on a visitors' page).
 */
function preloadOpenedPage(): void {
  const elements = (matchRoutes(routes, window.location) ?? []).map((match) => match.route.element);
  const redirecting = getToken() ? RequireGuest : RequireAuth;
  const guard = elements.findIndex((element) => isValidElement(element) && element.type === redirecting);
  preloadRouteElements(guard < 0 ? elements : elements.slice(0, guard));
}

export function createAppRouter() {
  preloadOpenedPage();
  return createBrowserRouter(routes);
}
