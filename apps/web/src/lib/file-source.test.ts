import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { askForThumbnail } from './file-source';

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
