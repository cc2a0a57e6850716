import type { ServerResponse } from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { nativeAddon, type SocketSegment } from './native-addon.ts';

/** Bytes, or a range of a file given by an open descriptor or by its path. */

/**
 * A response's connection that bytes can be sent into without passing through Node's
 * buffers. Callers send a response's last bytes through the response itself: Node then
 * has finished it by the time the client holds the whole body, whereas a server closing
 * just after a direct send would find the connection busy and wait for its keep-alive timeout.
 */
export interface DirectSocket {
  /**
   * Sends the segments in order; file bytes go from the page cache to the socket with
   * sendfile(2). Rejects when the connection fails, when a file is missing or shorter than
   * its range (the response is then cut short), and when the response closes first.
   */
  send(segments: readonly SocketSegment[]): Promise<void>;
}

/**
 * Responses with a direct socket at once. Each send runs on a thread of its own that
 * mostly waits for the peer; past this many, responses take the portable path instead.
 */
const MAX_DIRECT_RESPONSES = 128;
/** How long a send waits for a peer that takes nothing, when the server sets no idle timeout itself. */
const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

let directResponses = 0;

type NodeSocket = net.Socket & { _handle?: { fd?: unknown } | null };

/**
 * After `writeHead`, the response's socket as a DirectSocket, once its headers have left;
 * null when bytes cannot go into it directly: off Linux, over TLS, a response still queued
 * behind an earlier one on the connection, or too many direct responses at once. Callers
 * then write through the response as usual. A whole file this way goes out faster than
 * nginx serves it here, about twice as fast as through reused buffers (docs/decisions/0012).
 */
export async function directSocketOf(response: ServerResponse): Promise<DirectSocket | null> {
  const { send, cancel } = nativeAddon();
  const socket = response.socket as NodeSocket | null;
  if (!send || !cancel || !(socket instanceof net.Socket) || 'encrypted' in socket) return null;
  // A response already closed would never emit 'close' again to give its slot back.
  if (response.destroyed || directResponses >= MAX_DIRECT_RESPONSES) return null;
  directResponses += 1;
  let slotHeld = true;
  const releaseSlot = () => {
    if (slotHeld) directResponses -= 1;
    slotHeld = false;
  };
  response.once('close', releaseSlot);
  response.flushHeaders();
  // Write callbacks run in order: once this one runs, the headers are in the kernel.
  await new Promise<void>((resolve) => socket.write(Buffer.alloc(0), () => resolve()));
  const fd = socket._handle?.fd;
  if (socket.destroyed || socket.writableLength > 0 || typeof fd !== 'number' || fd < 0) {
    releaseSlot();
    return null;
  }
  // Node frames a body without Content-Length in chunks; bytes sent past it must be framed the same way.
  const chunked = (response as ServerResponse & { chunkedEncoding?: boolean }).chunkedEncoding === true;

  return {
    send(segments) {
      const framed = chunked ? inChunk(segments) : coalesced(segments);
      if (framed.length === 0) return Promise.resolve();
      return new Promise((resolve, reject) => {
        // Checked right before the addon dups the descriptor, with no await in between: once
        // Node has closed it, the same number may already be another client's connection.
        if (response.destroyed || socket.destroyed || socket._handle?.fd !== fd) return reject(closedEarly());
        // Node sees none of these bytes, so its idle timer would cut a long send; the addon
        // applies the same timeout to the peer instead, and Node's timer restarts afterwards.
        const idleTimeout = socket.timeout ?? 0;
        const handle = send(fd, framed, idleTimeout > 0 ? idleTimeout : DEFAULT_IDLE_TIMEOUT_MS, (error) => {
          response.off('close', onClose);
          if (!socket.destroyed) socket.setTimeout(idleTimeout);
          if (error) reject(response.destroyed || peerLeft(error) ? Object.assign(closedEarly(), { cause: error }) : error);
          else resolve();
        });
        const onClose = () => cancel(handle);
        response.on('close', onClose);
        socket.setTimeout(0);
      });
    },
  };
}

/**
 * The errors a send gets when the other end has gone, before Node itself may have noticed,
 * or took nothing for the idle timeout, which Node would have ended the same way.
 */
function peerLeft(error: Error & { errno?: number }): boolean {
  const { EPIPE, ECONNRESET, ETIMEDOUT } = os.constants.errno;
  return error.errno === EPIPE || error.errno === ECONNRESET || error.errno === ETIMEDOUT;
}

function closedEarly(): Error {
  return Object.assign(new Error('The connection closed before the last byte'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/** Neighbouring byte segments joined, so that small records do not each cost a system call. */
function coalesced(segments: readonly SocketSegment[]): SocketSegment[] {
  const result: SocketSegment[] = [];
  let bytes: Buffer[] = [];
  const flush = () => {
    if (bytes.length > 0) result.push(bytes.length === 1 ? (bytes[0] as Buffer) : Buffer.concat(bytes));
    bytes = [];
  };
  for (const segment of segments) {
    if (segment.length === 0) continue;
    if (Buffer.isBuffer(segment)) {
      bytes.push(segment);
    } else {
      flush();
      result.push(segment);
    }
  }
  flush();
  return result;
}

/** The segments as one HTTP/1.1 chunk; nothing at all when they are empty, as an empty chunk would end the body. */
function inChunk(segments: readonly SocketSegment[]): SocketSegment[] {
  const total = segments.reduce((sum, segment) => sum + segment.length, 0);
  if (total === 0) return [];
  return coalesced([Buffer.from(`${total.toString(16)}\r\n`), ...segments, Buffer.from('\r\n')]);
}
