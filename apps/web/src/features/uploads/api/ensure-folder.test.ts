import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from '../../../lib/api-client';
import { ensureFolder } from './ensure-folder';

const existing = { id: 'f1', name: '\u00dcn\u00efc\u00f8d\u00e9 \u76ee\u5f55', parentId: null, createdAt: '', updatedAt: '' };

describe('ensureFolder', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ['decomposed, as macOS may name a dropped folder', existing.name.normalize('NFD')],
    ['in another case outside ASCII', '\u00dcN\u00cfC\u00d8D\u00c9 \u76ee\u5f55'],
  ])('merges into the folder the server says has the name when the dropped one is %s', async (_how, dropped) => {
    vi.spyOn(api, 'post').mockRejectedValue(new ApiError(409, 'taken', 'NAME_TAKEN', undefined, undefined));
    vi.spyOn(api, 'get').mockResolvedValue({ folders: [{ ...existing, id: 'other', name: 'Other' }, existing] });
    expect(await ensureFolder(dropped, null)).toEqual({ ...existing, existed: true });
  });
});
