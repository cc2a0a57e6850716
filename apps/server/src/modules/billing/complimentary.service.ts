import type { PlanId } from '@cloudvault/contract/plans';
import type { Subscription } from '@cloudvault/contract/subscriptions';
import type { AuditEntryRow } from '../../db/admin-audit.ts';
import type { Clock } from '../../lib/clock.ts';
import { conflict } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { PlanCatalogue } from '../plans/plans.catalogue.ts';
import type { BillingQueries, SubscriptionRow } from './billing.repository.ts';
import { COMPLIMENTARY, grantsPlan } from './billing-rules.ts';
import { presentSubscription } from './billing.presenter.ts';
import type { PlanChanges, PlanQueries } from './plan-changes.ts';

/** What granting and ending a complimentary plan writes, beside deciding the plan. */
export type ComplimentaryQueries = PlanQueries & Pick<BillingQueries, 'saveSubscription' | 'endActiveSubscription' | 'recordAuditEntry'>;

export interface ComplimentaryServiceDeps {
  records: Pick<BillingQueries, 'latestSubscription' | 'dueComplimentary'>;
  planChanges: PlanChanges<ComplimentaryQueries>;
  clock: Clock;
}

/**
 * A plan an operator granted has no provider behind it (docs/decisions/0029-operator-console.md):
 * the user's own billing actions (checkout, portal, plan change, cancel) do not apply to it.
 */
export function refuseComplimentary(subscription: SubscriptionRow | undefined, plans: Pick<PlanCatalogue, 'get'>): void {
  if (subscription?.provider !== COMPLIMENTARY) return;
  const name = plans.get(subscription.plan_id).name;
  throw conflict(
    `Your ${name} plan is complimentary until ${subscription.current_period_end.slice(0, 10)}, so there is nothing to pay, change or cancel yet.`,
    'COMPLIMENTARY_PLAN',
  );
}

/**
 * Plans an operator grants free of charge until a date: a subscription row of the
 * `complimentary` provider, which no renewal bills and a job ends at its date.
 */
export function createComplimentaryService(deps: ComplimentaryServiceDeps) {
  const { records, planChanges, clock } = deps;

  /**
   * Ends a complimentary plan as of `endedAt` and moves the user to what remains, with the
   * operator's audit entry when an operator ends it; false when it had ended already.
   */
  function endPlan(row: SubscriptionRow, endedAt: string, audit?: AuditEntryRow): Promise<boolean> {
    return planChanges.inTransaction(async (transaction) => {
      const { at } = transaction;
      if (!(await transaction.records.endActiveSubscription(row.provider_subscription_id, endedAt < at ? endedAt : at, at))) return false;
      await transaction.records.recordAuditEntry(audit);
      await transaction.followSubscription(row.user_id);
      return true;
    });
  }

  return {
    /**
     * Grants `planId` until `endsAt`; a second grant changes the first. 409 while the user
     * pays for a plan: that is never replaced here. The operator's audit entry commits with the grant.
     */
    async grantComplimentary(
      input: { userId: string; planId: PlanId; endsAt: string; reason: string; grantedBy: string | null },
      audit?: AuditEntryRow,
    ): Promise<Subscription> {
      await planChanges.inTransaction(async (transaction) => {
        const { records: queries, at } = transaction;
        // Before the paid-subscription check, which must see what another node commits meanwhile.
        await queries.lockUser(input.userId);
        const latest = await queries.latestSubscription(input.userId);
        if (latest && grantsPlan(latest.status) && latest.provider !== COMPLIMENTARY) {
          throw conflict('This account pays for its plan: a complimentary plan cannot replace a paid subscription.', 'PAID_SUBSCRIPTION');
        }
        const current = latest?.provider === COMPLIMENTARY && latest.status === 'active' ? latest : undefined;
        await queries.saveSubscription({
          provider_subscription_id: current?.provider_subscription_id ?? `comp_${newId()}`,
          user_id: input.userId,
          provider: COMPLIMENTARY,
          customer_id: '',
          plan_id: input.planId,
          status: 'active',
          // It ends at its date: nothing renews it.
          cancel_at_period_end: 1,
          current_period_start: current?.current_period_start ?? at,
          current_period_end: input.endsAt,
          first_paid_at: null,
          created_at: current?.created_at ?? at,
          updated_at: at,
          grant_reason: input.reason,
          granted_by: input.grantedBy,
        });
        await queries.recordAuditEntry(audit);
        await transaction.followSubscription(input.userId);
      });
      const granted = await records.latestSubscription(input.userId);
      if (!granted) throw new Error('a complimentary grant left no subscription');
      return presentSubscription(granted);
    },

    /** The active complimentary plan of the user, if an operator granted one. */
    async complimentaryPlan(userId: string): Promise<SubscriptionRow | undefined> {
      const latest = await records.latestSubscription(userId);
      return latest?.provider === COMPLIMENTARY && grantsPlan(latest.status) ? latest : undefined;
    },

    /** Ends the user's complimentary plan now (an operator's choice, audited with it); false when there is none. */
    async endComplimentary(userId: string, audit?: AuditEntryRow): Promise<boolean> {
      const latest = await records.latestSubscription(userId);
      if (latest?.provider !== COMPLIMENTARY) return false;
      return endPlan(latest, clock.now().toISOString(), audit);
    },

    /**
     * The complimentary plans whose date has come end, and their users move to Free. Safe to
     * run twice at once: a plan is ended by whichever run changes it from active. Answers how many ended.
     */
    async endExpiredComplimentary(): Promise<number> {
      let ended = 0;
      for (const row of await records.dueComplimentary(clock.now().toISOString())) {
        if (await endPlan(row, row.current_period_end)) ended += 1;
      }
      return ended;
    },
  };
}
