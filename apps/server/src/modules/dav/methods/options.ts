import type { DavHandler } from '../dav-responses.ts';

/** Every method dav.routes.ts registers, as OPTIONS names them. */
const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';

/** OPTIONS: the compliance classes and methods a client may use here (RFC 4918, section 9.1 and 18). */
export const optionsHandler: DavHandler = async (_request, reply) =>
  reply.code(200).headers({ DAV: '1, 2', 'MS-Author-Via': 'DAV', Allow: ALLOW, 'Accept-Ranges': 'bytes' }).send();
