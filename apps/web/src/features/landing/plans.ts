import type { PlanId } from '@cloudvault/contract/plans';

/**
 * The plans as the landing page markets them (docs/product.md#plans). The landing
 * page is public and static, so it shows the default catalogue rather than fetching it;
 * the pricing and subscription pages read the live catalogue from the API.
 */
export interface MarketedPlan {
  id: PlanId;
  /** Dollars per month. */
  price: number;
  /** Bytes. */
  storageLimit: number;
  /** Bytes; null means no per-file limit. */
  maxFileSize: number | null;
  popular: boolean;
  features: Array<
    | 'shareLinks'
    | 'basicSupport'
    | 'protectedLinks'
    | 'longerExpiry'
    | 'advancedSharing'
    | 'prioritySupport'
    | 'everythingInPro'
    | 'versioning'
    | 'analytics'
    | 'support247'
  >;
}

const GB = 1024 ** 3;

export const MARKETED_PLANS: MarketedPlan[] = [
  {
    id: 'FREE',
    price: 0,
    storageLimit: 524_288_000,
    maxFileSize: 107_374_182,
    popular: false,
    features: ['shareLinks', 'basicSupport'],
  },
  {
    id: 'PRO',
    price: 9.99,
    storageLimit: 100 * GB,
    maxFileSize: 10 * GB,
    popular: true,
    features: ['protectedLinks', 'longerExpiry', 'advancedSharing', 'prioritySupport'],
  },
  {
    id: 'PREMIUM',
    price: 19.99,
    storageLimit: 1024 * GB,
    maxFileSize: null,
    popular: false,
    features: ['everythingInPro', 'versioning', 'analytics', 'support247'],
  },
];
