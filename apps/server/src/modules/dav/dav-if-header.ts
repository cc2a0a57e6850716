import { badRequest } from '../../lib/errors.ts';

/** One condition of an If header list: a state token or an entity tag, maybe negated. */
export type IfCondition = { not: boolean; token: string } | { not: boolean; etag: string };

/** A list of conditions, all of which must hold, about the tagged resource or the request's. */
export interface IfList {
  /** The Resource-Tag's URL; null for the request URL (a No-tag-list). */
  resource: string | null;
  conditions: IfCondition[];
}

const malformed = () => badRequest('The If header is malformed', 'DAV_BAD_IF_HEADER');

/**
 * Parses RFC 4918's If header (section 10.4) into its lists. A header that does not follow
 * the grammar is a 400: guessing at it could let a write through that a lock should stop.
 */
export function parseIfHeader(header: string): IfList[] {
  const lists: IfList[] = [];
  let position = 0;
  let resource: string | null = null;
  let tagged: boolean | undefined;
  const skipSpace = () => {
    while (position < header.length && /\s/.test(header[position] as string)) position++;
  };
  /** Reads up to the closing character, returning what is between. */
  const until = (close: string) => {
    const end = header.indexOf(close, position);
    if (end < 0) throw malformed();
    const value = header.slice(position, end);
    position = end + 1;
    return value;
  };
  for (skipSpace(); position < header.length; skipSpace()) {
    const char = header[position];
    if (char === '<') {
      if (tagged === false) throw malformed();
      tagged = true;
      position++;
      resource = until('>');
      skipSpace();
      if (header[position] !== '(') throw malformed();
      continue;
    }
    if (char !== '(') throw malformed();
    if (tagged === undefined) tagged = false;
    position++;
    const conditions: IfCondition[] = [];
    for (skipSpace(); header[position] !== ')'; skipSpace()) {
      if (position >= header.length) throw malformed();
      let not = false;
      if (header.slice(position, position + 3).toLowerCase() === 'not') {
        not = true;
        position += 3;
        skipSpace();
      }
      const open = header[position];
      position++;
      if (open === '<') conditions.push({ not, token: until('>') });
      else if (open === '[') conditions.push({ not, etag: until(']') });
      else throw malformed();
    }
    position++;
    if (conditions.length === 0) throw malformed();
    lists.push({ resource: tagged ? resource : null, conditions });
  }
  if (lists.length === 0) throw malformed();
  return lists;
}

/** The lock tokens a client submits: every token named without Not, whatever its list. */
export function submittedTokens(lists: readonly IfList[]): Set<string> {
  const tokens = new Set<string>();
  for (const list of lists)
    for (const condition of list.conditions) if ('token' in condition && !condition.not) tokens.add(condition.token);
  return tokens;
}
