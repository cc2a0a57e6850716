import type { DavLocksService } from '../dav-locks.service.ts';
import { parsePropertyUpdate } from '../dav-requests.ts';
import { bodyOf, checkWrite, located, pathOf, userOf } from '../dav-request-context.ts';
import { type DavHandler, sendXml, XML_DECLARATION } from '../dav-responses.ts';
import type { DavService } from '../dav.service.ts';
import { escapeXml, readBoundedBody } from '../dav-xml.ts';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  403: 'Forbidden',
  409: 'Conflict',
  424: 'Failed Dependency',
  507: 'Insufficient Storage',
};

/** PROPPATCH: sets and removes dead properties, all or none, answering each property's status grouped by status (RFC 4918, section 9.2). */
export function proppatchHandler(deps: {
  dav: Pick<DavService, 'locate' | 'proppatch'>;
  locks: Pick<DavLocksService, 'checkWrite'>;
}): DavHandler {
  return async (request, reply) => {
    const path = pathOf(request);
    const body = await readBoundedBody(bodyOf(request));
    const resource = await located(deps.dav, request);
    const changes = parsePropertyUpdate(body);
    await checkWrite(deps, request, path, [{ path }]);
    const outcomes = await deps.dav.proppatch(userOf(request), resource, changes);
    const byStatus = new Map<number, typeof outcomes>();
    for (const outcome of outcomes) byStatus.set(outcome.status, [...(byStatus.get(outcome.status) ?? []), outcome]);
    const propstats = [...byStatus].map(
      ([status, properties]) =>
        `<D:propstat><D:prop>${properties.map((p) => (p.namespace === 'DAV:' ? `<D:${p.name}/>` : `<${p.name} xmlns="${escapeXml(p.namespace)}"/>`)).join('')}</D:prop>` +
        `<D:status>HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ''}</D:status></D:propstat>`,
    );
    const href = `<D:href>${escapeXml(request.url.split('?')[0] as string)}</D:href>`;
    return sendXml(
      reply,
      207,
      `${XML_DECLARATION}<D:multistatus xmlns:D="DAV:"><D:response>${href}${propstats.join('')}</D:response></D:multistatus>`,
    );
  };
}
