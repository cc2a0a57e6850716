import { useQuery } from '@tanstack/react-query';
import { getCurrentSubscription } from '../../../hooks/use-current-subscription';
import { billingKeys } from '../../../lib/query-keys';

/**
 * The subscription as the finished checkout `sessionId` left it: GET
 * /api/subscriptions/current?session_id=…, which asks the payment provider first, so the
 * screen is right even before the provider's webhook has arrived.
 */
export function useCheckoutResult(sessionId: string | null) {
  return useQuery({
    queryKey: billingKeys.checkout(sessionId ?? ''),
    queryFn: ({ signal }) => getCurrentSubscription({ sessionId: sessionId ?? undefined, signal }),
    enabled: sessionId !== null,
    // One checkout's answer does not change; coming back to the screen shows it again.
    staleTime: Infinity,
  });
}
