import type { FastifyReply, FastifyRequest } from 'fastify';

export const XML_TYPE = 'application/xml; charset=utf-8';
export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n';

/** What a WebDAV method does with a request: each answers it whole, or throws an AppError for the app's error handler. */
export type DavHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** An XML error body naming the precondition that failed (RFC 4918, section 16). */
export const errorXml = (condition: string) => `${XML_DECLARATION}<D:error xmlns:D="DAV:">${condition}</D:error>`;

export function sendXml(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type(XML_TYPE).send(body);
}
