import type { FastifyError, FastifyInstance } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError, serviceUnavailable } from './errors.ts';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** Turns Ajv's findings into one sentence a person can act on. */
function describeValidation(issues: ValidationIssue[], context: string | undefined): string {
  const [issue] = issues;
  if (!issue) return 'Invalid request';
  const missing = issue.params?.missingProperty;
  const extra = issue.params?.additionalProperty;
  const field = issue.instancePath?.replace(/^\//, '').replaceAll('/', '.');
  if (typeof missing === 'string') return `${missing} is required`;
  if (typeof extra === 'string') return `${extra} is not an allowed field`;
  if (field) return `${field} ${issue.message ?? 'is invalid'}`;
  return `${context ?? 'request'} ${issue.message ?? 'is invalid'}`;
}

/** Errors Fastify raises on bad input, with the status and words we answer them with. */
const FASTIFY_CLIENT_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'The request body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'The request body is empty but should be JSON'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'The request body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'This content type is not supported here'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'The Content-Length does not match the body'],
};

/**
 * One place maps every error to `{"error", "code"}`. Client errors keep their message;
 * anything else is logged with the request id and answered with a generic 500.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      // An answer made from a fault underneath it (a full disk, an object store down) is the operator's to see.
      if (error.cause !== undefined) request.log.warn({ err: error.cause, code: error.code }, `answered ${error.status} ${error.code}`);
      return reply
        .code(error.status)
        .headers(error.headers)
        .send({ ...error.details, error: error.message, code: error.code });
    }
    if (error.validation) {
      return reply.code(400).send({
        error: describeValidation(error.validation as ValidationIssue[], error.validationContext),
        code: 'VALIDATION_FAILED',
      });
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) return reply.code(known[0]).send({ error: known[1], code: error.code });
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(error.statusCode).send({ error: error.message, code: error.code ?? 'BAD_REQUEST' });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable: answered 503');
      const unavailable = serviceUnavailable();
      return reply.code(unavailable.status).headers(unavailable.headers).send({ error: unavailable.message, code: unavailable.code });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
  });
}
