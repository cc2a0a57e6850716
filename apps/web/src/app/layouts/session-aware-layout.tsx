import { FullPageSpinner } from '../../components/ui/spinner';
import { useSession } from '../../hooks/use-session';
import { PublicLayout } from './public-layout';
import { SignedInLayout } from './lazy-signed-in-layout';

/** Pages open to everybody (pricing): the signed-in frame for users, the public one for visitors. */
export function SessionAwareLayout() {
  const { status } = useSession();
  if (status === 'loading') return <FullPageSpinner />;
  return status === 'signedIn' ? <SignedInLayout /> : <PublicLayout contained />;
}
