import { AnalyticsSection } from '../../features/analytics/components/analytics-section';
import { SubscriptionPage } from '../../features/subscription/components/subscription-page';

/** /subscription: Subscription & Billing, its Usage tab ending with the analytics. */
export function SubscriptionRoute() {
  return <SubscriptionPage analytics={AnalyticsSection} />;
}
