import type { HistoryType } from '@cloudvault/contract/subscriptions';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { PlanCatalogue } from '../plans/plans.catalogue.ts';
import type { BillingQueries, Transactional } from './billing.repository.ts';
import { grantsPlan, planChangeType } from './billing-rules.ts';

/** What deciding a user's plan reads and writes. */
export type PlanQueries = Pick<BillingQueries, 'lockUser' | 'latestSubscription' | 'userPlanId' | 'setUserPlan' | 'addHistory'>;

/** After a plan change is committed: the account's activity log. */
export type PlanChangedReaction = (userId: string, change: { type: HistoryType; planName: string }) => Promise<void>;

/** One transaction of billing records, and the only way it may move a user's plan. */
export interface PlanTransaction<Q extends PlanQueries> {
  records: Q;
  /** The clock's time when the transaction began: every row it writes carries it. */
  at: string;
  /**
   * Moves the user's plan to what their newest subscription grants, noting the move. The
   * user's row is locked first: a subscription another node records meanwhile is either
   * committed before this reads (and counted here), or its transaction decides the plan only
   * after this one commits; never read as absent here while its plan is then overwritten.
   */
  followSubscription(userId: string): Promise<void>;
  /** A line of the user's subscription history, written in this transaction. */
  addHistory(userId: string, type: HistoryType, planId: string): Promise<void>;
}

export interface PlanChangesDeps<Q extends PlanQueries> {
  records: Transactional<Q>;
  plans: Pick<PlanCatalogue, 'get'>;
  clock: Clock;
  planChanged: PlanChangedReaction;
}

/**
 * Every path that can change a user's plan (payment events, complimentary grants and their
 * end) runs its transaction here, so the plan follows the subscriptions in one way and
 * planChanged is told once per committed change, never for a write that left the plan as it was.
 */
export function createPlanChanges<Q extends PlanQueries>(deps: PlanChangesDeps<Q>) {
  const { plans } = deps;

  async function addHistory(records: Q, userId: string, type: HistoryType, planId: string, at: string): Promise<void> {
    await records.addHistory({ id: newId(), user_id: userId, type, plan_id: planId, created_at: at });
  }

  return {
    /** Runs `work` in one transaction; the plan changes it made are announced once it has committed. */
    async inTransaction<T>(work: (transaction: PlanTransaction<Q>) => Promise<T>): Promise<T> {
      const changes: Array<{ userId: string; type: HistoryType; planName: string }> = [];
      const result = await deps.records.transaction(async (records) => {
        const at = deps.clock.now().toISOString();
        return work({
          records,
          at,
          addHistory: (userId, type, planId) => addHistory(records, userId, type, planId, at),
          async followSubscription(userId) {
            await records.lockUser(userId);
            const latest = await records.latestSubscription(userId);
            const planId = latest && grantsPlan(latest.status) ? latest.plan_id : 'FREE';
            const previous = (await records.userPlanId(userId)) ?? 'FREE';
            if (planId === previous) return;
            const type = planChangeType(plans.get(previous), plans.get(planId));
            await records.setUserPlan(userId, planId, at);
            await addHistory(records, userId, type, planId, at);
            changes.push({ userId, type, planName: plans.get(planId).name });
          },
        });
      });
      // Outside the transaction: SQLite has one connection, which the transaction holds.
      for (const { userId, type, planName } of changes) await deps.planChanged(userId, { type, planName });
      return result;
    },
  };
}

export type PlanChanges<Q extends PlanQueries> = ReturnType<typeof createPlanChanges<Q>>;
