import type { AccountsService } from '../accounts/accounts.service.ts';
import type { BillingService } from '../billing/billing.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { SharesService } from '../shares/shares.service.ts';

/**
 * What an export's account.json holds besides folders and files (docs/api.md#account):
 * the user, their settings, billing and shares.
 */
export function createAccountRecord(deps: {
  accounts: Pick<AccountsService, 'profile'>;
  settings: Pick<SettingsService, 'get'>;
  billing: Pick<BillingService, 'current'>;
  shares: Pick<SharesService, 'list'>;
}) {
  return async (userId: string): Promise<Record<string, unknown>> => {
    const [user, userSettings, current, listedShares] = await Promise.all([
      deps.accounts.profile(userId),
      deps.settings.get(userId),
      deps.billing.current(userId),
      deps.shares.list(userId),
    ]);
    // The record is one JSON document, held whole: its shares are gathered from their pages.
    const userShares = [];
    for await (const share of listedShares) userShares.push(share);
    return {
      user,
      settings: userSettings,
      subscription: current.subscription,
      billingHistory: current.billingHistory,
      history: current.history,
      shares: userShares,
    };
  };
}
