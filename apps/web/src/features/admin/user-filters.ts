import type { AdminUserSort, AdminUsersQuery, AdminUserStatus } from '@cloudvault/contract/admin';
import type { PlanId } from '@cloudvault/contract/plans';

/**
 * The Users page's search, filters and sort. They live in the page's address (?q=…&plan=…),
 * so a search survives a reload, the back button and a link sent to another operator.
 */
export interface UserFilters {
  search: string;
  plan: PlanId | null;
  status: AdminUserStatus | null;
  sort: AdminUserSort;
}

export const PLAN_FILTERS: readonly PlanId[] = ['FREE', 'PRO', 'PREMIUM'];
export const STATUS_FILTERS: readonly AdminUserStatus[] = ['active', 'suspended'];
export const USER_SORTS: readonly AdminUserSort[] = ['created', 'storage', 'lastSignIn'];
const DEFAULT_SORT: AdminUserSort = 'created';

/** The server reads at most this many characters of a search (AdminUsersQuery). */
export const SEARCH_MAX_LENGTH = 200;

const oneOf = <T extends string>(allowed: readonly T[], value: string | null): T | null =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : null;

/** The filters an address asks for; anything unknown there (an old or edited link) falls back to "all". */
export function filtersFromParams(params: URLSearchParams): UserFilters {
  return {
    search: (params.get('q') ?? '').slice(0, SEARCH_MAX_LENGTH),
    plan: oneOf(PLAN_FILTERS, params.get('plan')),
    status: oneOf(STATUS_FILTERS, params.get('status')),
    sort: oneOf(USER_SORTS, params.get('sort')) ?? DEFAULT_SORT,
  };
}

/** The address's search parameters for `filters`; defaults are left out so a plain /admin/users stays plain. */
export function filtersToParams(filters: UserFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.search) params.set('q', filters.search);
  if (filters.plan) params.set('plan', filters.plan);
  if (filters.status) params.set('status', filters.status);
  if (filters.sort !== DEFAULT_SORT) params.set('sort', filters.sort);
  return params;
}

/**
 * GET /api/admin/users' query for `filters`: the search trimmed (spaces alone search
 * nothing), unset filters and the default sort left out, so equal searches share one cache entry.
 */
export function usersQuery(filters: UserFilters): AdminUsersQuery {
  const search = filters.search.trim();
  return {
    ...(search ? { search } : {}),
    ...(filters.plan ? { plan: filters.plan } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.sort !== DEFAULT_SORT ? { sort: filters.sort } : {}),
  };
}

/** Whether anything narrows the list (the empty state then says "no match" rather than "no users"). */
export function isFiltered(filters: UserFilters): boolean {
  return Object.keys(usersQuery({ ...filters, sort: DEFAULT_SORT })).length > 0;
}
