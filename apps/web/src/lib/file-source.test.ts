import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './api-client';
import { askForThumbnail, signedInFileSource } from './file-source';

const offlineCopyAddress = vi.hoisted(() => vi.fn<(fileId: string) => Promise<string | null>>());
vi.mock('./offline-files', () => ({ offlineCopyAddress, downloadFromDevice: () => {} }));

const notFound = (code: string) => new ApiError(404, 'This file has no thumbnail', code, { code }, 'This file has no thumbnail');

describe('askForThumbnail', () => {
  it('asks once for a thumbnail the server says will not come, per file and content', async () => {
    let asked = 0;
    const request = async (): Promise<Blob> => {
      asked += 1;
      throw notFound('NO_THUMBNAIL');
    };
    expect(await askForThumbnail('broken:v1', request)).toBeNull();
    expect(await askForThumbnail('broken:v1', request)).toBeNull();
    expect(asked).toBe(1);
    // A new version is a new content tag: asked for.
    expect(await askForThumbnail('broken:v2', request)).toBeNull();
    expect(asked).toBe(2);
  });

  it('asks again for one not made yet, and shows it once it is', async () => {
    let made = false;
    const request = async (): Promise<Blob> => {
      if (!made) throw notFound('THUMBNAIL_PENDING');
      return new Blob(['webp']);
    };
    expect(await askForThumbnail('photo:v1', request)).toBeNull();
    made = true;
    expect(await askForThumbnail('photo:v1', request)).toBeInstanceOf(Blob);
  });

  it('passes on other failures', async () => {
    await expect(askForThumbnail('offline:v1', () => Promise.reject(new TypeError('Failed to fetch')))).rejects.toThrow('Failed to fetch');
  });
});

describe('signedInFileSource.bytesUrl', () => {
  beforeEach(() => vi.stubGlobal('navigator', { onLine: true }));
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it("gives the server's link while the network answers, the device's copy when nothing answers", async () => {
    offlineCopyAddress.mockResolvedValue('/offline-files/f1');
    const ask = vi.spyOn(api, 'post').mockResolvedValueOnce({ url: '/api/downloads/t1', expiresAt: '' });
    expect(await signedInFileSource.bytesUrl('f1')).toBe('/api/downloads/t1');
    ask.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(await signedInFileSource.bytesUrl('f1')).toBe('/offline-files/f1');
  });

  it("passes on the server's refusal, and a network failure when the device keeps no copy", async () => {
    offlineCopyAddress.mockResolvedValue('/offline-files/f1');
    const ask = vi.spyOn(api, 'post').mockRejectedValueOnce(new ApiError(404, 'File not found', 'FILE_NOT_FOUND', {}, 'File not found'));
    await expect(signedInFileSource.bytesUrl('f1')).rejects.toBeInstanceOf(ApiError);
    offlineCopyAddress.mockResolvedValue(null);
    ask.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(signedInFileSource.bytesUrl('f1')).rejects.toThrow('Failed to fetch');
  });

  it('takes the copy without asking while the browser says it is offline', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    offlineCopyAddress.mockResolvedValue('/offline-files/f1');
    const ask = vi.spyOn(api, 'post');
    expect(await signedInFileSource.bytesUrl('f1')).toBe('/offline-files/f1');
    expect(ask).not.toHaveBeenCalled();
  });
});
