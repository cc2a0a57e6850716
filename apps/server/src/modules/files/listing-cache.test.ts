import { describe, expect, it } from 'vitest';
import { createListingCache } from './listing-cache.ts';

/** A cache over a stamp the test moves, counting the answers it had built. */
function setUp(maxBytes = 100, initialStamp: string | null = 's1') {
  let stamp = initialStamp;
  const built: string[] = [];
  const cache = createListingCache({ changeStamp: () => stamp, maxBytes });
  const build = async (key: string, body: string | null = key) =>
    String(
      await cache.get(key, async () => {
        built.push(key);
        return body === null ? null : Buffer.from(body);
      }),
    );
  return { build, built, setStamp: (next: string | null) => (stamp = next) };
}

describe('createListingCache', () => {
  it('answers again from what it kept while the stamp is the same', async () => {
    const { build, built } = setUp();
    expect(await build('a')).toBe('a');
    expect(await build('a')).toBe('a');
    expect(built).toEqual(['a']);
  });

  it('builds the answer again once the database has changed', async () => {
    const { build, built, setStamp } = setUp();
    await build('a', 'old');
    setStamp('s2');
    expect(await build('a', 'new')).toBe('new');
    expect(await build('a', 'newer')).toBe('new');
    expect(built).toEqual(['a', 'a']);
  });

  it("keeps no null (no answer: the folder is not the caller's), so the next one asks again", async () => {
    const { build, built } = setUp();
    expect(await build('a', null)).toBe('null');
    expect(await build('a', 'a')).toBe('a');
    expect(built).toEqual(['a', 'a']);
  });

  it('keeps nothing without a stamp (PostgreSQL)', async () => {
    const { build, built } = setUp(100, null);
    await build('a');
    await build('a');
    expect(built).toEqual(['a', 'a']);
  });

  it('drops the least recently used past its size and never keeps an answer larger than it', async () => {
    const { build, built } = setUp(10);
    await build('a', 'aaaa');
    await build('b', 'bbbb');
    await build('a', 'aaaa');
    await build('c', 'cccc');
    await build('a', 'aaaa');
    await build('b', 'bbbb');
    expect(built).toEqual(['a', 'b', 'c', 'b']);
    await build('d', 'd'.repeat(11));
    await build('d', 'd'.repeat(11));
    expect(built).toEqual(['a', 'b', 'c', 'b', 'd', 'd']);
  });

  it('gives an answer built while the stamp changed the older stamp, so it is built again next time', async () => {
    let stamp = 's1';
    let builds = 0;
    const cache = createListingCache({ changeStamp: () => stamp, maxBytes: 100 });
    await cache.get('a', async () => {
      builds++;
      stamp = 's2';
      return Buffer.from('during');
    });
    await cache.get('a', async () => {
      builds++;
      return Buffer.from('after');
    });
    expect(builds).toBe(2);
  });
});
