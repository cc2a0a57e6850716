import { badRequest } from '../../lib/errors.ts';
import type { DeadProperty } from './dav.repository.ts';
import type { PropertyName, PropfindRequest } from './dav-properties.ts';
import { childElements, isDav, parseXml, serializeChildren, type XmlElement } from './dav-xml.ts';

const invalid = (what: string) => badRequest(`The request body is not a valid ${what}`, 'DAV_INVALID_BODY');

const nameOf = (element: XmlElement): PropertyName => ({ namespace: element.ns, name: element.name });

/** A PROPFIND body (RFC 4918, section 14.20); an empty one asks for allprop. */
export function parsePropfind(text: string): PropfindRequest {
  if (text.trim() === '') return { kind: 'allprop', include: [] };
  const root = parseXml(text);
  if (!isDav(root, 'propfind')) throw invalid('propfind');
  const children = childElements(root);
  const first = children[0];
  if (!first) throw invalid('propfind');
  if (isDav(first, 'propname')) return { kind: 'propname' };
  if (isDav(first, 'allprop')) {
    const include = children.find((child) => isDav(child, 'include'));
    return { kind: 'allprop', include: include ? childElements(include).map(nameOf) : [] };
  }
  if (isDav(first, 'prop')) return { kind: 'prop', names: childElements(first).map(nameOf) };
  throw invalid('propfind');
}

export type PropertyChange = { set: DeadProperty } | { remove: PropertyName };

/** A PROPPATCH body (RFC 4918, section 14.19): sets and removes, in document order. */
export function parsePropertyUpdate(text: string): PropertyChange[] {
  const root = parseXml(text);
  if (!isDav(root, 'propertyupdate')) throw invalid('propertyupdate');
  const changes: PropertyChange[] = [];
  for (const instruction of childElements(root)) {
    const set = isDav(instruction, 'set');
    if (!set && !isDav(instruction, 'remove')) throw invalid('propertyupdate');
    for (const prop of childElements(instruction)) {
      if (!isDav(prop, 'prop')) throw invalid('propertyupdate');
      for (const property of childElements(prop)) {
        changes.push(set ? { set: { ...nameOf(property), value: serializeChildren(property) } } : { remove: nameOf(property) });
      }
    }
  }
  if (changes.length === 0) throw invalid('propertyupdate');
  return changes;
}

/** A LOCK body (RFC 4918, section 14.11): the scope and the owner; write is the only lock type. */
export function parseLockInfo(text: string): { exclusive: boolean; owner: string } {
  const root = parseXml(text);
  if (!isDav(root, 'lockinfo')) throw invalid('lockinfo');
  const children = childElements(root);
  const scope = children.find((child) => isDav(child, 'lockscope'));
  const type = children.find((child) => isDav(child, 'locktype'));
  const scopeValue = scope && childElements(scope)[0];
  if (!scopeValue || !(isDav(scopeValue, 'exclusive') || isDav(scopeValue, 'shared'))) throw invalid('lockinfo');
  if (!type || !childElements(type).some((child) => isDav(child, 'write'))) throw invalid('lockinfo');
  const owner = children.find((child) => isDav(child, 'owner'));
  return { exclusive: isDav(scopeValue, 'exclusive'), owner: owner ? serializeChildren(owner) : '' };
}
