import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '@cloudvault/contract/common';
import {
  CHANGES_WAIT_MAX_SECONDS,
  ChangesLatestResponse,
  ChangesQuery,
  ChangesResponse,
  ChangesStreamQuery,
} from '@cloudvault/contract/changes';
import { caller } from '../../lib/auth.ts';
import { AppError } from '../../lib/errors.ts';
import type { ChangesService } from './changes.service.ts';

const refusals = { 400: ErrorBody, 401: ErrorBody, 410: ErrorBody, 429: ErrorBody };

/** The change feed (docs/api.md#change-feed): its position now, pages after a cursor with an optional wait, and a stream. */
export function changesRoutes(changes: ChangesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', app.requireUser);

    app.get(
      '/changes/latest',
      { schema: { tags: ['changes'], response: { 200: ChangesLatestResponse, 401: ErrorBody } } },
      async (request) => changes.latest(caller(request).userId),
    );

    app.get(
      '/changes',
      { schema: { tags: ['changes'], querystring: ChangesQuery, response: { 200: ChangesResponse, ...refusals } } },
      async (request, reply) => {
        const wait = request.query.wait === undefined ? 0 : Number(request.query.wait);
        if (wait > CHANGES_WAIT_MAX_SECONDS)
          throw new AppError(400, 'INVALID_WAIT', `wait is at most ${CHANGES_WAIT_MAX_SECONDS} seconds.`);
        const left = leaving(reply.raw, app.closingSignal);
        try {
          return await changes.after(caller(request).userId, request.query.cursor, {
            limit: request.query.limit,
            waitMs: wait * 1000,
            signal: left.signal,
          });
        } finally {
          left.dispose();
          // Ended by the server closing: the connection goes too, rather than idling until the close times out.
          if (app.closingSignal.aborted) reply.header('connection', 'close');
        }
      },
    );

    app.get(
      '/changes/stream',
      { schema: { tags: ['changes'], querystring: ChangesStreamQuery, response: refusals } },
      async (request, reply) => {
        const stream = await changes.openStream(caller(request).userId, request.query.cursor);
        const left = leaving(reply.raw, app.closingSignal);
        reply.hijack();
        const raw = reply.raw;
        raw.writeHead(200, {
          ...(reply.getHeaders() as Record<string, string>),
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          'x-accel-buffering': 'no',
          // A stream ends only when the client or the server leaves: its connection is not reused.
          connection: 'close',
        });
        raw.write(': connected\n\n');
        // A comment now and then, so proxies and the browser keep an idle stream open.
        const stopKeepAlive = changes.keepAlive(() => raw.write(': keep-alive\n\n'));
        try {
          await stream.run(
            { send: (page) => raw.write(`id: ${page.cursor}\nevent: changes\ndata: ${JSON.stringify(page)}\n\n`) },
            left.signal,
          );
        } catch (error) {
          // A cursor that expired while the stream was open: the client lists again.
          const body =
            error instanceof AppError
              ? { error: error.message, code: error.code }
              : { error: 'The change stream stopped.', code: 'STREAM_FAILED' };
          if (!(error instanceof AppError)) request.log.error({ err: error }, 'change stream failed');
          raw.write(`event: reset\ndata: ${JSON.stringify(body)}\n\n`);
        } finally {
          stopKeepAlive();
          left.dispose();
          raw.end();
        }
      },
    );
  };
}

/** Aborts when the client goes away (the response's connection closes) or the server starts closing. */
function leaving(raw: NodeJS.EventEmitter, closing: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  raw.once('close', abort);
  // A request that reached its handler after closing began ends at once too.
  if (closing.aborted) abort();
  else closing.addEventListener('abort', abort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      raw.off('close', abort);
      closing.removeEventListener('abort', abort);
    },
  };
}
