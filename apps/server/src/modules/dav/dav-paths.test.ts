import { describe, expect, it } from 'vitest';
import { hrefOf, parseDavPath, parseDavUrl, pathKey } from './dav-paths.ts';

describe('parseDavPath', () => {
  it('decodes each segment of a path under /dav/', () => {
    expect(parseDavPath('/dav/')).toEqual([]);
    expect(parseDavPath('/dav')).toEqual([]);
    expect(parseDavPath('/dav/a%20b/100%25%20%23%2B.txt?x=1')).toEqual(['a b', '100% #+.txt']);
    expect(parseDavPath(`/dav/${encodeURIComponent('cafe\u0301')}`)).toEqual(['caf\u00e9']);
  });

  it('refuses dot segments, encoded separators, control characters and broken escapes', () => {
    for (const path of [
      '/dav/../x',
      '/dav/a/%2e%2E/x',
      '/dav/a%2Fb',
      '/dav/a%5Cb',
      '/dav/a%00b',
      '/dav/%E0%A4%A',
      '/api/files',
      '/davx/a',
    ]) {
      expect(() => parseDavPath(path), path).toThrow();
    }
  });
});

describe('parseDavUrl', () => {
  it('takes absolute URLs on this host and absolute paths', () => {
    expect(parseDavUrl('http://host:1/dav/a%20b', 'host:1')).toEqual({ path: ['a b'] });
    expect(parseDavUrl('/dav/x/', 'host:1')).toEqual({ path: ['x'] });
  });

  it('tells another host and a path outside /dav/ apart, and refuses dot segments before URL could resolve them', () => {
    expect(parseDavUrl('http://other/dav/a', 'host:1')).toEqual({ otherHost: true });
    expect(parseDavUrl('http://host:1/api/files', 'host:1')).toEqual({ outside: true });
    expect(() => parseDavUrl('http://host:1/dav/../api', 'host:1')).toThrow();
  });
});

describe('hrefs and keys', () => {
  it('encode every segment, with a slash after a collection', () => {
    expect(hrefOf([], true)).toBe('/dav/');
    expect(hrefOf(['a b', 'c#d'], true)).toBe('/dav/a%20b/c%23d/');
    expect(hrefOf(['x.txt'], false)).toBe('/dav/x.txt');
  });

  it('compare paths whatever their case', () => {
    expect(pathKey(['Docs', 'A.TXT'])).toBe('/docs/a.txt');
    expect(pathKey([])).toBe('/');
    expect(pathKey(['\u00dcN\u00cfC\u00d8D\u00c9', '\u00c4pfel.txt'])).toBe('/\u00fcn\u00efc\u00f8d\u00e9/\u00e4pfel.txt');
  });
});
