/**
 * The idle streams' ceiling (bench/changes/idle-streams.ts), run as its own process: every
 * GET is answered as our change stream starts (200, text/event-stream, `: connected`) and
 * then held, with a keep-alive comment every 25 s per stream as ours sends. No framework,
 * no authentication, no database: what holding the connections costs Node itself.
 */
import http from 'node:http';

const KEEP_ALIVE_MS = 25_000;
const { PORT } = process.env;
if (!PORT) throw new Error('PORT is required');

http
  .createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200).end('ok');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
    res.write(': connected\n\n');
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    req.once('close', () => clearInterval(keepAlive));
  })
  .listen(Number(PORT), '127.0.0.1');
