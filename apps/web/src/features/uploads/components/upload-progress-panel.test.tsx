// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { UploadFailure } from '../upload-queue';
import { uploadQueue } from '../upload-store';
import { UploadProgressPanel } from './upload-progress-panel';

interface Pending {
  name: string;
  onProgress: (loaded: number) => void;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}
const pending: Pending[] = [];

// The real transport is XMLHttpRequest to the server; here each upload waits for the test.
vi.mock('../api/upload-file', () => ({
  uploadFile: (file: File, _folderId: string | null, { onProgress }: { onProgress: (loaded: number) => void }) =>
    new Promise((resolve, reject) => pending.push({ name: file.name, onProgress, resolve, reject })),
}));
vi.mock('react-hot-toast', () => ({ default: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn() }) }));

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation(async (input) =>
    String(input).startsWith('/api/subscriptions/plans')
      ? Response.json({ plans: [{ id: 'FREE', maxConcurrentUploads: 3 }, { id: 'PRO', maxConcurrentUploads: 10 }] })
      : Response.json({ userMaxFileSize: 107374182, userMaxFileSizeFormatted: '102.4 MB', userPlan: 'FREE' }),
  );
  localStorage.setItem('token', 't');
});
afterEach(() => {
  act(() => uploadQueue.clear());
  pending.length = 0;
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const file = (name: string, size: number) => new File([new Uint8Array(size)], name);

/** The panel, once the upload settings and the plan catalogue are in (the queue then runs the plan's number at once). */
async function renderPanel() {
  const result = renderWithProviders(<UploadProgressPanel />);
  await waitFor(() => {
    expect(result.queryClient.getQueryData(['billing', 'plans'])).toBeDefined();
    expect(result.queryClient.getQueryData(['uploads', 'config'])).toBeDefined();
  });
  return result;
}

describe('UploadProgressPanel', () => {
  it("runs as many uploads at once as the plan's entry in the catalogue allows", async () => {
    await renderPanel();
    act(() => {
      uploadQueue.add(['1', '2', '3', '4'].map((name) => ({ file: file(`${name}.bin`, 10), folderId: null })));
    });
    expect(pending.map((upload) => upload.name)).toEqual(['1.bin', '2.bin', '3.bin']);
  });

  it('shows nothing without uploads, then the count, the overall percent and each row', async () => {
    await renderPanel();
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull();

    act(() => {
      uploadQueue.add([
        { file: file('a.bin', 1000), folderId: null },
        { file: file('b.bin', 3000), folderId: null },
      ]);
    });
    const panel = screen.getByRole('region', { name: 'Uploads' });
    expect(within(panel).getByRole('heading', { name: 'Uploading 2 file(s)' })).toBeTruthy();
    act(() => pending[0]!.onProgress(1000));
    act(() => pending[1]!.onProgress(1000));
    expect(within(panel).getByText('50% overall')).toBeTruthy();
    expect(within(screen.getByRole('listitem', { name: 'b.bin' })).getByText(/^2.93 KB · 33%/)).toBeTruthy();
  });

  it('minimises and expands, shows a failure with the server text or "Upload failed", and dismisses it', async () => {
    const user = userEvent.setup();
    await renderPanel();
    act(() => {
      uploadQueue.add([
        { file: file('quota.bin', 10), folderId: null },
        { file: file('broken.bin', 10), folderId: null },
      ]);
    });
    await act(async () => {
      pending[0]!.reject(new UploadFailure(507, 'Not enough storage: 1 MB free'));
      pending[1]!.reject(new UploadFailure(0, undefined));
    });
    expect(within(screen.getByRole('listitem', { name: 'quota.bin' })).getByRole('alert').textContent).toBe('Not enough storage: 1 MB free');
    expect(within(screen.getByRole('listitem', { name: 'broken.bin' })).getByRole('alert').textContent).toBe('Upload failed');

    await user.click(screen.getByRole('button', { name: 'Minimize' }));
    expect(screen.queryByRole('listitem', { name: 'quota.bin' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Expand' }));
    await user.click(within(screen.getByRole('listitem', { name: 'quota.bin' })).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('listitem', { name: 'quota.bin' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Uploading 1 file(s)' })).toBeTruthy();
  });

  it('closes everything with the close button, cancelling what still runs', async () => {
    const user = userEvent.setup();
    await renderPanel();
    act(() => {
      uploadQueue.add([{ file: file('running.bin', 10), folderId: null }]);
    });
    await user.click(screen.getByRole('button', { name: 'Close all uploads' }));
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull();
    expect(uploadQueue.busy).toBe(false);
  });
});
