import type { FastifyRequest } from 'fastify';

/**
 * A preValidation hook for routes whose body fields are all optional: a POST sent with no
 * body at all is read as `{}` instead of failing the object schema.
 */
export async function emptyBodyAsObject(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}
