import { describe, expect, it } from 'vitest';
import type { DavLockRow } from './dav.repository.ts';
import { activeLockXml } from './dav-properties.ts';
import { presentLock } from './dav-locks.service.ts';
import { propfindExtraBytes } from './dav-propfind-budget.ts';
import type { DavResource } from './dav.service.ts';

const lockAt = (pathKey: string, depthInfinity: boolean): DavLockRow => ({
  token: `urn:uuid:${pathKey}`,
  user_id: 'u',
  path_key: pathKey,
  href: `/dav${pathKey}`,
  depth_infinity: depthInfinity ? 1 : 0,
  exclusive: 0,
  owner: 'someone',
  timeout_seconds: 60,
  expires_at: '2100-01-01T00:00:00.000Z',
  created_at: '2026-01-01T00:00:00.000Z',
});
const bytesOf = (lock: DavLockRow) => Buffer.byteLength(activeLockXml(presentLock(lock)));
const folder: DavResource = {
  kind: 'folder',
  path: ['team'],
  folder: { id: 'f', name: 'team', parent_id: null, created_at: '', updated_at: '' },
};

describe('propfindExtraBytes', () => {
  it('counts dead properties as read, and nothing for locks when none are asked for', () => {
    expect(propfindExtraBytes(folder, { listsMembers: true, deadBytes: 1234, memberCount: 50, locks: [] })).toBe(1234);
  });

  it('repeats a depth-infinity lock over the listed folder once per member, and once more for the folder', () => {
    const above = lockAt('/', true);
    const at = lockAt('/team', true);
    const figures = { listsMembers: true, deadBytes: 0, memberCount: 30, locks: [above, at] };
    expect(propfindExtraBytes(folder, figures)).toBe(31 * (bytesOf(above) + bytesOf(at)));
  });

  it('counts a lock on a member once, a depth-0 lock on the folder for the folder alone, and ignores locks elsewhere', () => {
    const member = lockAt('/team/a.txt', false);
    const depthZero = lockAt('/team', false);
    const elsewhere = lockAt('/other', true);
    const deeper = lockAt('/team/sub/b.txt', false);
    const figures = { listsMembers: true, deadBytes: 0, memberCount: 30, locks: [member, depthZero, elsewhere, deeper] };
    expect(propfindExtraBytes(folder, figures)).toBe(bytesOf(member) + bytesOf(depthZero));
    expect(propfindExtraBytes(folder, { ...figures, listsMembers: false })).toBe(bytesOf(depthZero));
  });
});
