// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FolderActivityEntry } from '@cloudvault/contract/shares';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { FolderActivityList } from './folder-activity';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  window.localStorage.setItem('token', 'a-session');
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const entry = (overrides: Partial<FolderActivityEntry>): FolderActivityEntry => ({
  id: 'a1',
  action: 'uploaded',
  kind: 'file',
  name: 'beach.jpg',
  actor: { name: 'Grace Hopper', isLinkVisitor: false },
  folderId: 'f1',
  details: {},
  createdAt: '2026-12-06T10:00:00.000Z',
  ...overrides,
});

describe('a shared folder’s activity', () => {
  it('lists who did what, newest first as the server gives it, a link’s visitor named as such', async () => {
    fetchMock.mockResolvedValue(
      Response.json({
        activity: [
          entry({ id: 'a2', action: 'renamed', name: 'sea.jpg' }),
          entry({ id: 'a1', actor: { name: 'Someone', isLinkVisitor: true } }),
        ],
      }),
    );
    renderWithProviders(<FolderActivityList folderId="f1" name="Family" />);

    const list = await screen.findByRole('list', { name: 'Activity in “Family”' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('span')?.textContent),
    ).toEqual(['Grace Hopper renamed sea.jpg', 'Someone (via link) uploaded beach.jpg']);
    expect(list.querySelector('time')?.getAttribute('datetime')).toBe('2026-12-06T10:00:00.000Z');
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/user/folders/f1/activity');
  });

  it('says when nothing happened yet, and when the list could not be read', async () => {
    fetchMock.mockResolvedValueOnce(Response.json({ activity: [] }));
    renderWithProviders(<FolderActivityList folderId="f1" name="Family" />);
    await screen.findByText('Nothing has happened here yet');
    cleanup();

    fetchMock.mockResolvedValueOnce(Response.json({ error: 'Folder not found', code: 'NOT_FOUND' }, { status: 404 }));
    renderWithProviders(<FolderActivityList folderId="f2" name="Gone" />);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load the activity');
  });
});
