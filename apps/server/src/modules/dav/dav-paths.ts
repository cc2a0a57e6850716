import { nameKey } from '@cloudvault/contract/validation';
import { badRequest } from '../../lib/errors.ts';

/** Where My Files is served: every href of an answer starts here. */
export const DAV_PREFIX = '/dav';

/** A path under /dav/ as the names it walks through; the root is no segment at all. */
export type DavPath = readonly string[];

/**
 * The names a request path walks through, decoded one segment at a time. A segment that
 * decodes to a separator (%2F, %5C), a NUL or another control character, or to `.` or
 * `..`, is refused: a name can never climb out of My Files or stand for two segments.
 * Names come back composed (NFC), as they are stored: macOS sends them decomposed.
 */
export function parseDavPath(rawPath: string): DavPath {
  const path = rawPath.split('?')[0] ?? '';
  if (path !== DAV_PREFIX && !path.startsWith(`${DAV_PREFIX}/`)) throw badRequest('Not a WebDAV path', 'DAV_BAD_PATH');
  const segments: string[] = [];
  for (const raw of path.slice(DAV_PREFIX.length).split('/')) {
    if (raw === '') continue;
    let name: string;
    try {
      name = decodeURIComponent(raw);
    } catch {
      throw badRequest('The path is not valid percent-encoded UTF-8', 'DAV_BAD_PATH');
    }
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    if (name === '.' || name === '..' || /[/\\\u0000-\u001f\u007f]/.test(name)) {
      throw badRequest('A path segment may not be "." or "..", nor hold a separator or a control character', 'DAV_BAD_PATH');
    }
    segments.push(name.normalize('NFC'));
  }
  return segments;
}

/** The path of a Destination header or an If header's resource tag: an absolute URI on this host, or an absolute path. */
export function parseDavUrl(value: string, host: string | undefined): { path: DavPath } | { otherHost: true } | { outside: true } {
  let url: URL;
  try {
    url = new URL(value, 'http://placeholder.invalid');
  } catch {
    throw badRequest('The URL is not valid', 'DAV_BAD_URL');
  }
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(value);
  if (absolute && (host === undefined || url.host.toLowerCase() !== host.toLowerCase())) return { otherHost: true };
  const pathname = value.startsWith('/') || absolute ? rawPathname(value) : undefined;
  if (pathname === undefined) throw badRequest('The URL must be absolute', 'DAV_BAD_URL');
  if (pathname !== DAV_PREFIX && !pathname.startsWith(`${DAV_PREFIX}/`)) return { outside: true };
  return { path: parseDavPath(pathname) };
}

/** The path part of a URL exactly as written (URL would resolve `..` and `%2E%2E` away before we could refuse them). */
function rawPathname(value: string): string {
  const withoutScheme = value.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  return withoutScheme.split(/[?#]/)[0] || '/';
}

/** How a path compares: each name by its key (contract nameKey), as names are unique among siblings. */
export function pathKey(path: DavPath): string {
  return `/${path.map(nameKey).join('/')}`;
}

/** The path's href in answers: each segment percent-encoded, a collection's with a trailing slash. */
export function hrefOf(path: DavPath, collection: boolean): string {
  const encoded = path.map((name) => encodeURIComponent(name)).join('/');
  if (path.length === 0) return `${DAV_PREFIX}/`;
  return `${DAV_PREFIX}/${encoded}${collection ? '/' : ''}`;
}
