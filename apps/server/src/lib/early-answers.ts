import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route sends `100 Continue` itself once it has decided to take the body
     * (`continueWithBody`); every other route gets it before its body is parsed.
     */
    decidesContinue?: boolean;
  }
}

/** How long and how much of a refused request's body is read and dropped before the connection closes. */
export interface DiscardBounds {
  /** Close when the client sends nothing for this long. */
  idleMs: number;
  /** Close this long after the answer at the latest, however the client trickles. */
  totalMs: number;
  /** Close once this many bytes have been dropped. */
  maxBytes: number;
}

/** nginx's lingering_timeout and lingering_time, and a byte cap (docs/decisions/0018-early-answers.md). */
export const DISCARD_BOUNDS: DiscardBounds = { idleMs: 5_000, totalMs: 30_000, maxBytes: 256 * 1024 * 1024 };

/** Tells a client waiting on `Expect: 100-continue` to send its body now. */
export function continueWithBody(request: FastifyRequest, reply: FastifyReply): void {
  if (request.headers.expect?.toLowerCase() === '100-continue' && !reply.raw.headersSent) reply.raw.writeContinue();
}

/**
 * Reads and drops the rest of a request body whose answer is on its way, then closes the
 * connection. Node's HTTP server closes a `Connection: close` answer's socket as soon as the
 * answer is written; a close with unread bytes makes the kernel send a reset, which wipes
 * the answer from the client's buffer before it is read (RFC 9112, section 9.6). So the
 * close waits, like nginx's lingering close: our side is shut for writing (the client sees
 * the end of the answer), the rest of the body is read and dropped, and the socket closes
 * when the body has all arrived, or at the first bound reached.
 */
export function discardRestThenClose(request: IncomingMessage, bounds: DiscardBounds = DISCARD_BOUNDS): void {
  const socket = request.socket;
  // A request a failed stream.pipeline destroyed has lost its socket (Node's destroyer sets
  // it to null): nothing is left to read from it, and its timers would close a null socket.
  if (!socket) return;
  let dropped = 0;
  const close = () => {
    clearTimeout(idle);
    clearTimeout(total);
    socket.destroy();
  };
  const idle = setTimeout(close, bounds.idleMs);
  const total = setTimeout(close, bounds.totalMs);
  socket.once('close', close);
  // Whatever parsed the body (the multipart parser) stops; the bytes now go nowhere.
  request.unpipe();
  request.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > bounds.maxBytes) close();
    else idle.refresh();
  });
  request.resume();
  let answered = false;
  const closeWhenDone = () => {
    if (answered && request.complete) close();
  };
  request.once('end', closeWhenDone);
  // Node calls destroySoon once a Connection: close answer is written (docs/decisions/0018-early-answers.md).
  socket.destroySoon = () => {
    socket.end(() => {
      answered = true;
      closeWhenDone();
    });
  };
}

/**
 * Early answers that arrive: a route decides on `Expect: 100-continue` before the body
 * comes, and an answer sent before the whole body has come is followed by a lingering
 * close instead of a reset (docs/decisions/0018-early-answers.md).
 */
export function registerEarlyAnswers(app: FastifyInstance, bounds: DiscardBounds = DISCARD_BOUNDS): void {
  // With a listener here Node no longer answers 100 by itself: the request goes on to the
  // routes, which refuse it (auth in onRequest, the upload's own checks) before any body byte.
  app.server.on('checkContinue', (request, response) => app.server.emit('request', request, response));
  // Callbacks, not async: every request passes both (docs/decisions/0034-request-cost.md, addendum).
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (!request.routeOptions.config.decidesContinue) continueWithBody(request, reply);
    done(null, payload);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.complete && !reply.raw.headersSent) {
      reply.header('Connection', 'close');
      discardRestThenClose(request.raw, bounds);
    }
    done(null, payload);
  });
}
