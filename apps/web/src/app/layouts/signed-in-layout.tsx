import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { ContentSpinner } from '../../components/ui/spinner';
import { VerifyEmailBanner } from '../../features/auth/components/verify-email-banner';
import { UploadProgressPanel } from '../../features/uploads/components/upload-progress-panel';
import { useSession } from '../../hooks/use-session';
import { pageContainerClass } from './page-container';
import { SignedInHeader } from './signed-in-header';

/** The app for a signed-in user: account header above the page, upload progress over it. Render only with a session. */
export function SignedInLayout() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="flex min-h-dvh flex-col">
      <SignedInHeader user={user} />
      <VerifyEmailBanner user={user} />
      <main id="main" tabIndex={-1} className={pageContainerClass}>
        <Suspense fallback={<ContentSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      {/* Uploads carry on, and stay in view, while the user moves between pages. */}
      <UploadProgressPanel />
    </div>
  );
}
