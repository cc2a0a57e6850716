import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '@cloudvault/contract/subscriptions';
import { PLAN_CARD_FEATURES, recentChanges, shownFeatures, UPGRADE_MODAL_FEATURES } from './shown-items';

const features = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

describe('shownFeatures', () => {
  it('shows the first 6 on a plan card and counts the rest', () => {
    expect(PLAN_CARD_FEATURES).toBe(6);
    expect(shownFeatures(features, PLAN_CARD_FEATURES)).toEqual({ shown: ['a', 'b', 'c', 'd', 'e', 'f'], hidden: 2 });
  });

  it('shows all once expanded, or when there are no more than the limit', () => {
    expect(shownFeatures(features, PLAN_CARD_FEATURES, true)).toEqual({ shown: features, hidden: 0 });
    expect(shownFeatures(features.slice(0, 6), PLAN_CARD_FEATURES)).toEqual({ shown: features.slice(0, 6), hidden: 0 });
  });

  it('shows 5 in the upgrade modal', () => {
    expect(UPGRADE_MODAL_FEATURES).toBe(5);
    expect(shownFeatures(features, UPGRADE_MODAL_FEATURES).shown).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('recentChanges', () => {
  it('keeps the 5 newest entries', () => {
    const history: HistoryEntry[] = Array.from({ length: 7 }, (_, index) => ({
      type: 'other',
      planName: `Plan ${index}`,
      date: `2026-01-0${index + 1}T00:00:00.000Z`,
    }));
    expect(recentChanges(history).map((entry) => entry.planName)).toEqual(['Plan 0', 'Plan 1', 'Plan 2', 'Plan 3', 'Plan 4']);
    expect(recentChanges([])).toEqual([]);
  });
});
