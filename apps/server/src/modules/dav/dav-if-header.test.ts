import { describe, expect, it } from 'vitest';
import { parseIfHeader, submittedTokens } from './dav-if-header.ts';

describe('parseIfHeader', () => {
  it('reads untagged lists with tokens, entity tags and Not', () => {
    expect(parseIfHeader('(<urn:uuid:a> ["x"]) (Not <DAV:no-lock>)')).toEqual([
      {
        resource: null,
        conditions: [
          { not: false, token: 'urn:uuid:a' },
          { not: false, etag: '"x"' },
        ],
      },
      { resource: null, conditions: [{ not: true, token: 'DAV:no-lock' }] },
    ]);
  });

  it('reads tagged lists, the tag applying to the lists after it', () => {
    expect(parseIfHeader('<http://h/dav/a> (<urn:uuid:a>) (<urn:uuid:b>) </dav/b> (["e"])')).toEqual([
      { resource: 'http://h/dav/a', conditions: [{ not: false, token: 'urn:uuid:a' }] },
      { resource: 'http://h/dav/a', conditions: [{ not: false, token: 'urn:uuid:b' }] },
      { resource: '/dav/b', conditions: [{ not: false, etag: '"e"' }] },
    ]);
  });

  it('refuses what the grammar does not allow, a cut-off header included', () => {
    for (const header of ['', '<urn:x>', '()', '(<urn:a>', '(<urn:a> ["e', '(<urn:a>) <http://h/x> (<urn:b>)', 'garbage']) {
      expect(() => parseIfHeader(header), header).toThrow(/malformed/);
    }
  });

  it('counts only tokens named without Not as submitted', () => {
    expect([...submittedTokens(parseIfHeader('(<urn:a>) (Not <urn:b>) (["e"] <urn:c>)'))]).toEqual(['urn:a', 'urn:c']);
  });
});
