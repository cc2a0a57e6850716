import { useQuery } from '@tanstack/react-query';
import type { PlanId } from '@cloudvault/contract/plans';
import type { PlanChangePreview } from '@cloudvault/contract/subscriptions';
import { api } from '../../../lib/api-client';

/** GET /api/subscriptions/preview: what a change between paid plans charges or credits now, changing nothing. */
export function previewPlanChange(planId: PlanId): Promise<PlanChangePreview> {
  return api.get<PlanChangePreview>(`/subscriptions/preview?planId=${planId}`);
}

/**
 * The preview for the plan the confirmation shows (none while it is closed). Asked afresh each
 * time it opens and never kept: the figure is for this moment, and the server takes its
 * proration date back for 30 minutes only.
 */
export function usePlanChangePreview(planId: PlanId | null) {
  return useQuery({
    queryKey: ['billing', 'preview', planId] as const,
    queryFn: () => previewPlanChange(planId as PlanId),
    enabled: planId !== null,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}
