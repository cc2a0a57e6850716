import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { ContentSpinner } from '../../components/ui/spinner';
import { VerifyEmailBanner } from '../../features/auth/components/verify-email-banner';
import { useLiveChanges } from '../../features/changes/hooks/use-live-changes';
import { UploadProgressPanel } from '../../features/uploads/components/upload-progress-panel';
import { useAfterFirstPaint } from '../../hooks/use-after-first-paint';
import { useSession } from '../../hooks/use-session';
import { OfflineNotice } from './offline-notice';
import { pageContainerClass } from './page-container';
import { SignedInHeader } from './signed-in-header';

/** The app for a signed-in user: account header above the page, upload progress over it. Render only with a session. */
export function SignedInLayout() {
  const { user } = useSession();
  // The header and the e-mail verification banner, drawn from the session alone, paint in a
  // frame of their own; the page's first render (the dashboard's takes a few hundred
  // milliseconds on a phone) and every request of the shell and the page start after it:
  // the banner is the dashboard's largest paint (docs/decisions/0031-web-delivery.md, "Main-thread work").
  const shellPainted = useAfterFirstPaint();
  // The tab's one change stream, so every signed-in screen follows changes made elsewhere;
  // opened with the page's own requests, after the shell's first frame.
  useLiveChanges(shellPainted ? user?.id : undefined);
  if (!user) return null;
  return (
    <div className="flex min-h-dvh flex-col">
      <SignedInHeader user={user} loadDetails={shellPainted} />
      <VerifyEmailBanner user={user} />
      <OfflineNotice />
      <main id="main" tabIndex={-1} className={pageContainerClass}>
        <Suspense fallback={<ContentSpinner />}>{shellPainted ? <Outlet /> : <ContentSpinner />}</Suspense>
      </main>
      {/* Uploads carry on, and stay in view, while the user moves between pages. */}
      {shellPainted && <UploadProgressPanel />}
    </div>
  );
}
