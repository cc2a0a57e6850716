import http from 'node:http';
import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DiscardBounds, registerEarlyAnswers } from './early-answers.ts';
import { AppError } from './errors.ts';
import { registerErrorHandler } from './error-handler.ts';

/** Small bounds, so that every one of them is reached within a test. */
const BOUNDS: DiscardBounds = { idleMs: 200, totalMs: 1_000, maxBytes: 4 * 1024 * 1024 };

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = Fastify();
  registerErrorHandler(app);
  registerEarlyAnswers(app, BOUNDS);
  // Refuses before reading a byte of the body, as an upload over the limit is.
  app.addContentTypeParser('application/octet-stream', (_request, _payload, done) => done(null));
  app.post('/refuse', { config: { decidesContinue: true } }, async () => {
    throw new AppError(413, 'FILE_TOO_LARGE', 'This file is too large');
  });
  app.post('/echo', async (request) => ({ received: request.body }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
});
afterAll(() => app.close());

const openConnections = () =>
  new Promise<number>((resolve, reject) => app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));

/**
 * A client that announces `declared` bytes, sends what `send` writes and never closes its
 * side by itself (a half-closed answer does not stop it, as it does not stop many clients);
 * resolves once the server has closed the connection, with what the client read.
 */
async function refusedUpload(declared: number, send: (socket: net.Socket) => void) {
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  let answer = '';
  let reset = false;
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.on('error', () => (reset = true));
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`POST /refuse HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${declared}\r\n\r\n`);
  send(socket);
  await expect.poll(openConnections, { timeout: 10_000 }).toBe(0);
  socket.destroy();
  return { answer, reset };
}

describe('after an early answer', () => {
  it('reads the whole body, then closes without a reset', async () => {
    const body = Buffer.alloc(1024 * 1024);
    const { answer, reset } = await refusedUpload(body.length, (socket) => socket.write(body));
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/connection: close/i);
    expect(answer).toContain('"code":"FILE_TOO_LARGE"');
    expect(reset).toBe(false);
  });

  it('closes a connection whose client stops sending, after the idle bound', async () => {
    const { answer } = await refusedUpload(1024 * 1024, (socket) => socket.write(Buffer.alloc(1000)));
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('closes a connection whose client trickles bytes forever (slow loris), after the total bound', async () => {
    let timer: NodeJS.Timeout | undefined;
    const { answer } = await refusedUpload(1024 * 1024 * 1024, (socket) => {
      timer = setInterval(() => socket.writable && socket.write(Buffer.alloc(10)), BOUNDS.idleMs / 4);
    });
    clearInterval(timer);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('closes a connection once it has dropped more bytes than the cap', async () => {
    const chunk = Buffer.alloc(64 * 1024);
    const { answer } = await refusedUpload(1024 * 1024 * 1024, (socket) => {
      const pump = () => {
        while (socket.writable && socket.write(chunk));
        if (socket.writable) socket.once('drain', pump);
      };
      pump();
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });
});

describe('Expect: 100-continue', () => {
  it('tells the client to send its body before a route without its own decision parses it', async () => {
    const events: string[] = [];
    const body = JSON.stringify({ hello: 'world' });
    const answer = await new Promise<string>((resolve, reject) => {
      const request = http.request({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/echo',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
      });
      request.on('continue', () => {
        events.push('continue');
        request.end(body);
      });
      request.on('response', (response) => {
        events.push(String(response.statusCode));
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve(text));
      });
      request.on('error', reject);
    });
    expect(events).toEqual(['continue', '200']);
    expect(JSON.parse(answer)).toEqual({ received: { hello: 'world' } });
  });
});
