import { withoutBidiControls } from '@cloudvault/contract/validation';

/**
 * Content-Disposition: attachment with an ASCII fallback and the UTF-8 name (RFC 6266),
 * without bidirectional controls that a name stored before they were stripped may hold.
 */
export function attachmentDisposition(storedName: string): string {
  const fileName = withoutBidiControls(storedName);
  const ascii =
    fileName
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\x20-\x7e]/g, '_')
      .replace(/["\\%]/g, '_') || 'download';
  const utf8 = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/**
 * Whether a Range may be served (RFC 9110 §13.1.5): only while its If-Range names the
 * current representation, so a resumed download never splices two versions of a file.
 * An entity tag must match strongly (a weak one never does). A date would be compared
 * with Last-Modified, which downloads do not send (the sha256 ETag is the validator, and
 * a second-resolution date cannot tell two versions stored in the same second apart),
 * so a date never matches. No If-Range: the Range stands.
 */
export function ifRangeHolds(ifRange: string | string[] | undefined, etag: string): boolean {
  if (ifRange === undefined) return true;
  // If-Range holds one validator; a repeated header names none for certain.
  return typeof ifRange === 'string' && ifRange.trim() === etag;
}

export type RangeRequest = { kind: 'whole' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' };

/** One byte range of a `Range` header (multiple ranges are served whole, as RFC 9110 allows). */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return { kind: 'whole' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || start > end) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end };
}
