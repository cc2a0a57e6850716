import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { ContentSpinner } from '../../components/ui/spinner';
import { PublicFooter } from './public-footer';
import { PublicHeader } from './public-header';
import { publicPageContainerClass } from './page-container';

/**
 * Pages for visitors: marketing header, page, footer. `contained` puts the page in the
 * standard content frame; without it the page is full-bleed (landing sections).
 */
export function PublicLayout({ contained = false }: { contained?: boolean }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main id="main" tabIndex={-1} className={contained ? publicPageContainerClass : 'flex flex-1 flex-col outline-none'}>
        {/* A viewport-tall placeholder keeps the footer below the fold until the page arrives,
            so it does not jump when a long page replaces the spinner (layout shift). */}
        <Suspense
          fallback={
            <div className="flex min-h-dvh flex-col">
              <ContentSpinner />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </main>
      <PublicFooter />
    </div>
  );
}
