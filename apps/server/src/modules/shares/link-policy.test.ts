import { describe, expect, it } from 'vitest';
import { refusal } from '../../lib/refusal.testing.ts';
import { checkLinkRole, requireLinkUse } from './link-policy.ts';

describe('link roles', () => {
  it('allow each use to the roles that have it, and name why a refusal is one', async () => {
    for (const role of ['view', 'edit'] as const)
      for (const use of ['browse', 'view', 'download'] as const) expect(() => requireLinkUse(role, use)).not.toThrow();
    expect(() => requireLinkUse('view-only', 'browse')).not.toThrow();
    expect(() => requireLinkUse('view-only', 'view')).not.toThrow();
    expect(await refusal(Promise.resolve().then(() => requireLinkUse('view-only', 'download')))).toMatchObject({
      status: 403,
      code: 'DOWNLOAD_NOT_ALLOWED',
    });
    for (const use of ['browse', 'view', 'download'] as const)
      expect(await refusal(Promise.resolve().then(() => requireLinkUse('upload', use)))).toMatchObject({
        status: 403,
        code: 'UPLOAD_ONLY_LINK',
      });
  });

  it('take files only into a folder, and a message only on links that take files', async () => {
    expect(() => checkLinkRole('folder', 'upload', 'Send your scans')).not.toThrow();
    expect(() => checkLinkRole('folder', 'edit', null)).not.toThrow();
    expect(() => checkLinkRole('file', 'view-only', undefined)).not.toThrow();
    expect(await refusal(Promise.resolve().then(() => checkLinkRole('file', 'upload', undefined)))).toMatchObject({
      status: 400,
      code: 'ROLE_NOT_FOR_FILES',
    });
    expect(await refusal(Promise.resolve().then(() => checkLinkRole('file', 'edit', undefined)))).toMatchObject({
      status: 400,
      code: 'ROLE_NOT_FOR_FILES',
    });
    expect(await refusal(Promise.resolve().then(() => checkLinkRole('folder', 'view', 'hello')))).toMatchObject({
      status: 400,
      code: 'MESSAGE_NOT_FOR_ROLE',
    });
  });
});
