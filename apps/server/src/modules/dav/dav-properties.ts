import type { ActiveLock } from './dav-locks.service.ts';
import { hrefOf } from './dav-paths.ts';
import type { DeadProperty } from './dav.repository.ts';
import { type DavResource, etagOf } from './dav.service.ts';
import { DAV_NS, escapeXml } from './dav-xml.ts';

/** A property's name: its namespace and local name. */
export interface PropertyName {
  namespace: string;
  name: string;
}

/** What a PROPFIND asks for (RFC 4918, section 9.1). */
export type PropfindRequest = { kind: 'allprop'; include: PropertyName[] } | { kind: 'propname' } | { kind: 'prop'; names: PropertyName[] };

/** What rendering one resource's properties needs beyond the resource. */
export interface PropertyContext {
  dead: DeadProperty[];
  locks: ActiveLock[];
  quota: { used: number; available: number } | undefined;
}

/** ownCloud's namespace: Nextcloud and ownCloud clients, and rclone's nextcloud and owncloud vendors, read checksums from it. */
export const OWNCLOUD_NS = 'http://owncloud.org/ns';

/** The live properties allprop returns (RFC 4918, section 15); the quota ones only when named (RFC 4331). */
const ALLPROP_LIVE = [
  'creationdate',
  'displayname',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'resourcetype',
  'lockdiscovery',
  'supportedlock',
];
const LIVE = new Set([...ALLPROP_LIVE, 'quota-available-bytes', 'quota-used-bytes']);
/** Live properties of other namespaces, all of them in allprop too: a file's checksums. */
const LIVE_ELSEWHERE: readonly PropertyName[] = [{ namespace: OWNCLOUD_NS, name: 'checksums' }];

const isLive = ({ namespace, name }: PropertyName) =>
  namespace === DAV_NS ? LIVE.has(name) : LIVE_ELSEWHERE.some((live) => live.namespace === namespace && live.name === name);
const isAllpropLive = ({ namespace, name }: PropertyName) =>
  namespace === DAV_NS ? ALLPROP_LIVE.includes(name) : isLive({ namespace, name });

const SUPPORTED_LOCK =
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>';

const dates = (resource: DavResource) =>
  resource.kind === 'file' ? resource.file : resource.kind === 'folder' ? resource.folder : undefined;

/** One activelock element (RFC 4918, section 14.1). */
export function activeLockXml(lock: ActiveLock): string {
  return (
    `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope>${lock.exclusive ? '<D:exclusive/>' : '<D:shared/>'}</D:lockscope>` +
    `<D:depth>${lock.depthInfinity ? 'infinity' : '0'}</D:depth>${lock.owner ? `<D:owner>${lock.owner}</D:owner>` : ''}` +
    `<D:timeout>Second-${lock.timeoutSeconds}</D:timeout><D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(lock.root)}</D:href></D:lockroot></D:activelock>`
  );
}

/**
 * A file's checksums as ownCloud and Nextcloud give them, `TYPE:hex` separated by spaces in
 * one element: ours is the SHA-256 the upload paths compute (Nextcloud's desktop client
 * reads SHA256; rclone reads only SHA1 and MD5 from it, which we do not keep).
 */
const checksumsXml = (sha256: string) => `<checksum>SHA256:${escapeXml(sha256)}</checksum>`;

/** A live property's value as XML, or undefined where the resource has none (a collection's length). */
function liveValue(resource: DavResource, { namespace, name }: PropertyName, context: PropertyContext): string | undefined {
  if (namespace === OWNCLOUD_NS) return name === 'checksums' && resource.kind === 'file' ? checksumsXml(resource.file.sha256) : undefined;
  const row = dates(resource);
  const collection = resource.kind !== 'file';
  switch (name) {
    case 'creationdate':
      return row && escapeXml(new Date(row.created_at).toISOString());
    case 'displayname':
      return resource.path.length > 0 ? escapeXml(resource.path.at(-1) as string) : undefined;
    case 'getcontentlength':
      return resource.kind === 'file' ? String(Number(resource.file.size)) : undefined;
    case 'getcontenttype':
      return resource.kind === 'file' ? escapeXml(resource.file.mimetype) : undefined;
    case 'getetag':
      return etagOf(resource) && escapeXml(etagOf(resource) as string);
    case 'getlastmodified':
      return row && new Date(row.updated_at).toUTCString();
    case 'resourcetype':
      return collection ? '<D:collection/>' : '';
    case 'lockdiscovery':
      return context.locks.map(activeLockXml).join('');
    case 'supportedlock':
      return SUPPORTED_LOCK;
    case 'quota-available-bytes':
      return collection && context.quota ? String(context.quota.available) : undefined;
    case 'quota-used-bytes':
      return collection && context.quota ? String(context.quota.used) : undefined;
    default:
      return undefined;
  }
}

/** An element of a property with its value, or empty. */
function propertyXml(namespace: string, name: string, value: string | undefined): string {
  if (namespace === DAV_NS) return value ? `<D:${name}>${value}</D:${name}>` : `<D:${name}/>`;
  return value ? `<${name} xmlns="${escapeXml(namespace)}">${value}</${name}>` : `<${name} xmlns="${escapeXml(namespace)}"/>`;
}

const propstat = (props: string, status: string) =>
  `<D:propstat><D:prop>${props}</D:prop><D:status>HTTP/1.1 ${status}</D:status></D:propstat>`;

/** Whether answering the request needs the resources' dead properties, locks or quota. */
export function needs(request: PropfindRequest): { dead: boolean; locks: boolean; quota: boolean } {
  if (request.kind !== 'prop') return { dead: true, locks: request.kind === 'allprop', quota: false };
  return {
    dead: request.names.some((property) => !isLive(property)),
    locks: request.names.some((property) => property.namespace === DAV_NS && property.name === 'lockdiscovery'),
    quota: request.names.some((property) => property.namespace === DAV_NS && property.name.startsWith('quota-')),
  };
}

/** The properties a request names, each once, worked out once per request however many resources it lists. */
const wantedByRequest = new WeakMap<PropfindRequest, Array<PropertyName & { live: boolean }>>();
function wantedOf(request: Exclude<PropfindRequest, { kind: 'propname' }>): Array<PropertyName & { live: boolean }> {
  let wanted = wantedByRequest.get(request);
  if (!wanted) {
    const named =
      request.kind === 'allprop'
        ? [...ALLPROP_LIVE.map((name) => ({ namespace: DAV_NS, name })), ...LIVE_ELSEWHERE, ...request.include]
        : request.names;
    const keys = new Set<string>();
    wanted = named
      .filter(({ namespace, name }) => !keys.has(`${namespace} ${name}`) && keys.add(`${namespace} ${name}`))
      .map((property) => ({ ...property, live: isLive(property) }));
    wantedByRequest.set(request, wanted);
  }
  return wanted;
}

/** One resource's response element of a PROPFIND multistatus. */
export function propfindResponse(resource: DavResource, request: PropfindRequest, context: PropertyContext): string {
  const href = `<D:href>${escapeXml(hrefOf(resource.path, resource.kind !== 'file'))}</D:href>`;
  const deadXml = (property: DeadProperty) => propertyXml(property.namespace, property.name, property.value);
  if (request.kind === 'propname') {
    const everyLive = [...[...LIVE].map((name) => ({ namespace: DAV_NS, name })), ...LIVE_ELSEWHERE];
    const live = everyLive.filter(
      (property) => liveValue(resource, property, { ...context, quota: { used: 0, available: 0 } }) !== undefined,
    );
    const names = [
      ...live.map((property) => propertyXml(property.namespace, property.name, undefined)),
      ...context.dead.map((property) => propertyXml(property.namespace, property.name, undefined)),
    ];
    return `<D:response>${href}${propstat(names.join(''), '200 OK')}</D:response>`;
  }
  const found: string[] = [];
  const missing: string[] = [];
  const wanted = wantedOf(request);
  for (const { namespace, name, live } of wanted) {
    // A live property is the server's alone: a dead one of its name (a client's PROPPATCH) never shows.
    const value = live
      ? liveValue(resource, { namespace, name }, context)
      : context.dead.find((property) => property.namespace === namespace && property.name === name)?.value;
    if (value !== undefined) found.push(propertyXml(namespace, name, value));
    else if (request.kind === 'prop' || !(live && isAllpropLive({ namespace, name })))
      missing.push(propertyXml(namespace, name, undefined));
  }
  if (request.kind === 'allprop') {
    for (const property of context.dead)
      if (!wanted.some((one) => one.namespace === property.namespace && one.name === property.name)) found.push(deadXml(property));
  }
  const parts = [
    found.length > 0 ? propstat(found.join(''), '200 OK') : '',
    missing.length > 0 ? propstat(missing.join(''), '404 Not Found') : '',
  ];
  return `<D:response>${href}${parts.join('')}</D:response>`;
}
