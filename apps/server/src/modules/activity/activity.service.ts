import type { ActivityEntry, ActivityType } from '@cloudvault/contract/profile';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { ActivityRepository } from './activity.repository.ts';

/** The Profile page shows this many recent entries. */
const RECENT_ENTRIES = 50;

/**
 * The account's own log (sign-ins, uploads, shares, plan changes, security changes). A
 * failure to write it is logged and never fails what it records.
 */
export function createActivityService(deps: { activity: ActivityRepository; clock: Clock; log: ServiceLog }) {
  return {
    async record(userId: string, type: ActivityType, details: Record<string, string> = {}): Promise<void> {
      try {
        await deps.activity.insert({
          id: newId(),
          user_id: userId,
          type,
          details: JSON.stringify(details),
          created_at: deps.clock.now().toISOString(),
        });
      } catch (error) {
        deps.log.error({ err: error, userId, type }, 'activity not recorded');
      }
    },

    /** Whether an entry of this type with exactly these details was recorded (a device seen before). */
    hasRecorded(userId: string, type: ActivityType, details: Record<string, string>): Promise<boolean> {
      return deps.activity.has(userId, type, JSON.stringify(details));
    },

    async recent(userId: string): Promise<ActivityEntry[]> {
      return (await deps.activity.recent(userId, RECENT_ENTRIES)).map((row) => ({
        type: row.type as ActivityType,
        details: JSON.parse(row.details) as Record<string, string>,
        createdAt: row.created_at,
      }));
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
