// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { UploadZone } from './upload-zone';

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'test-token');
});
afterEach(() => {
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('UploadZone', () => {
  it('says it is loading the settings, then shows the idle texts with the plan badge of a paid plan', async () => {
    let answer!: (response: Response) => void;
    fetchMock.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    renderWithProviders(<UploadZone folderId={null} />);
    expect(await screen.findByText('Loading upload settings...')).toBeTruthy();
    // The zone's name is its visible text: the state it is in.
    expect(screen.getByRole('button', { name: 'Loading upload settings...' }).getAttribute('aria-disabled')).toBe('true');

    answer(json(200, { userMaxFileSize: 10737418240, userMaxFileSizeFormatted: '10 GB', userPlan: 'PRO' }));
    expect(await screen.findByText('Up to 10 GB per file')).toBeTruthy();
    expect(screen.getByText('Upload Files')).toBeTruthy();
    expect(screen.getByText('Multiple files')).toBeTruthy();
    expect(screen.getByText('Pro plan')).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Upload Files Drag and drop files here/ }).getAttribute('aria-disabled')).toBeNull();
  });

  it('falls back to the Free defaults when the settings cannot be loaded', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    fetchMock.mockResolvedValue(json(500, { error: 'boom' }));
    renderWithProviders(<UploadZone folderId={null} />);
    expect(await screen.findByText('Up to 102.4 MB per file', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByText('Free plan')).toBeNull();
  });

  it('is unusable without a stored token (no settings are fetched)', async () => {
    localStorage.clear();
    renderWithProviders(<UploadZone folderId={null} />);
    expect(await screen.findByText('Sign in to upload files')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
