import { lazy } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AuthLayout } from './layouts/auth-layout';
import { SignedInLayout } from './layouts/lazy-signed-in-layout';
import { PublicLayout } from './layouts/public-layout';
import { RootLayout } from './layouts/root-layout';
import { SessionAwareLayout } from './layouts/session-aware-layout';
import { RouteError } from './route-error';
import { RequireAdmin, RequireAuth, RequireGuest } from './route-guards';
import { withAppStrings } from './with-app-strings';

// Every page is its own chunk, loaded when first visited. A page that shows other
// features gets them from its route in ./routes: features never import one another.
// The public pages use only the English strings bundled with the entry; the others load
// the rest with their chunk (withAppStrings).
const LandingPage = lazy(() =>
  import('../features/landing/components/landing-page').then((m) => ({ default: m.LandingPage })),
);
const LoginPage = lazy(() => import('../features/auth/components/login-page').then((m) => ({ default: m.LoginPage })));
const RegisterPage = lazy(() =>
  import('../features/auth/components/register-page').then((m) => ({ default: m.RegisterPage })),
);
const ForgotPasswordPage = lazy(() =>
  import('../features/auth/components/forgot-password-page').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('../features/auth/components/reset-password-page').then((m) => ({ default: m.ResetPasswordPage })),
);
const VerifyEmailPage = lazy(() =>
  import('../features/auth/components/verify-email-page').then((m) => ({ default: m.VerifyEmailPage })),
);
const PricingPage = lazy(() =>
  import('../features/pricing/components/pricing-page').then((m) => ({ default: m.PricingPage })),
);
const DashboardRoute = lazy(withAppStrings(() => import('./routes/dashboard-route').then((m) => ({ default: m.DashboardRoute }))));
const ProfilePage = lazy(withAppStrings(() =>
  import('../features/profile/components/profile-page').then((m) => ({ default: m.ProfilePage })),
));
const SubscriptionRoute = lazy(withAppStrings(() => import('./routes/subscription-route').then((m) => ({ default: m.SubscriptionRoute }))));
const SettingsPage = lazy(withAppStrings(() =>
  import('../features/settings/components/settings-page').then((m) => ({ default: m.SettingsPage })),
));
const TrashPage = lazy(withAppStrings(() => import('../features/trash/components/trash-page').then((m) => ({ default: m.TrashPage }))));
const PublicShareRoute = lazy(withAppStrings(() => import('./routes/public-share-route').then((m) => ({ default: m.PublicShareRoute }))));
const SharedWithMeRoute = lazy(withAppStrings(() => import('./routes/shared-with-me-route').then((m) => ({ default: m.SharedWithMeRoute }))));
const SharesPage = lazy(withAppStrings(() => import('../features/shares/components/shares-page').then((m) => ({ default: m.SharesPage }))));
const SuccessPage = lazy(withAppStrings(() =>
  import('../features/success/components/success-page').then((m) => ({ default: m.SuccessPage })),
));
const AdminLayout = lazy(withAppStrings(() => import('../features/admin/components/admin-layout').then((m) => ({ default: m.AdminLayout }))));
const AdminOverviewPage = lazy(withAppStrings(() => import('../features/admin/components/overview-page').then((m) => ({ default: m.OverviewPage }))));
const AdminUsersPage = lazy(withAppStrings(() => import('../features/admin/components/users-page').then((m) => ({ default: m.UsersPage }))));
const AdminUserDetailPage = lazy(withAppStrings(() =>
  import('../features/admin/components/user-detail-page').then((m) => ({ default: m.UserDetailPage })),
));
const AdminAuditPage = lazy(withAppStrings(() => import('../features/admin/components/audit-page').then((m) => ({ default: m.AuditPage }))));

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
              { path: 'login', element: <LoginPage /> },
              { path: 'register', element: <RegisterPage /> },
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
              { path: 'profile', element: <ProfilePage /> },
              { path: 'subscription', element: <SubscriptionRoute /> },
              { path: 'settings', element: <SettingsPage /> },
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

export function createAppRouter() {
  return createBrowserRouter(routes);
}
