import { describe, expect, it } from 'vitest';
import { arrivedAt, batchOfKey, sharedFileKey } from './shared-in';

const batch = '1765000000000-0f8e2a4c-1b2d-4e6f-8a9b-0c1d2e3f4a5b';

describe('shared-in batches', () => {
  it('reads the arrival time from a batch id, and nothing from anything else', () => {
    expect(arrivedAt(batch)).toBe(1765000000000);
    expect(arrivedAt('1765000000000')).toBeNull();
    expect(arrivedAt('../1765000000000-0f8e2a4c-1b2d-4e6f-8a9b-0c1d2e3f4a5b')).toBeNull();
    expect(arrivedAt('')).toBeNull();
  });

  it("finds a file's batch from its cache key", () => {
    expect(batchOfKey(`https://drive.example${sharedFileKey(batch, 3)}`)).toBe(batch);
    expect(batchOfKey('https://drive.example/share-in/other')).toBeNull();
    expect(batchOfKey('https://drive.example/api/files')).toBeNull();
  });
});
