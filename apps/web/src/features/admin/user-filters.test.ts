import { describe, expect, it } from 'vitest';
import { filtersFromParams, filtersToParams, isFiltered, usersQuery, type UserFilters } from './user-filters';

const all: UserFilters = { search: '', plan: null, status: null, sort: 'created' };

describe('the Users filters', () => {
  it('read from an address, ignoring values the server would refuse', () => {
    expect(filtersFromParams(new URLSearchParams('q=ada&plan=PRO&status=suspended&sort=storage'))).toEqual({
      search: 'ada',
      plan: 'PRO',
      status: 'suspended',
      sort: 'storage',
    });
    expect(filtersFromParams(new URLSearchParams('plan=GOLD&status=gone&sort=name'))).toEqual(all);
    expect(filtersFromParams(new URLSearchParams(`q=${'x'.repeat(300)}`)).search).toHaveLength(200);
  });

  it('write to an address without the defaults, and read back the same', () => {
    expect(filtersToParams(all).toString()).toBe('');
    const filters: UserFilters = { search: 'ada lovelace', plan: 'PREMIUM', status: 'active', sort: 'lastSignIn' };
    expect(filtersToParams(filters).toString()).toBe('q=ada+lovelace&plan=PREMIUM&status=active&sort=lastSignIn');
    expect(filtersFromParams(filtersToParams(filters))).toEqual(filters);
  });

  it("become the list's query: search trimmed, unset filters and the default sort left out", () => {
    expect(usersQuery(all)).toEqual({});
    expect(usersQuery({ ...all, search: '   ' })).toEqual({});
    expect(usersQuery({ search: '  ada@example.com ', plan: 'FREE', status: 'suspended', sort: 'storage' })).toEqual({
      search: 'ada@example.com',
      plan: 'FREE',
      status: 'suspended',
      sort: 'storage',
    });
  });

  it('narrow the list only with a search or a filter, not with a sort', () => {
    expect(isFiltered(all)).toBe(false);
    expect(isFiltered({ ...all, sort: 'storage' })).toBe(false);
    expect(isFiltered({ ...all, search: ' ' })).toBe(false);
    expect(isFiltered({ ...all, status: 'suspended' })).toBe(true);
    expect(isFiltered({ ...all, search: 'ada' })).toBe(true);
  });
});
