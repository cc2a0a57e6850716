import net from 'node:net';

/** The Redis the nodes share (.ci/run starts it); TEST_REDIS_URL points elsewhere. */
export const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/**
 * Commands to Redis over RESP, answered as their raw reply lines. A few lines of protocol
 * instead of a client library: the suite only probes, picks an empty database and empties it.
 */
function redisCommands(url: string, commands: string[][]): Promise<string> {
  const { hostname, port } = new URL(url);
  const payload = commands.map((args) => `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`).join('');
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.createConnection({ host: hostname, port: Number(port || 6379) }, () => socket.write(`${payload}*1\r\n$4\r\nQUIT\r\n`));
    socket.setTimeout(5_000, () => socket.destroy(new Error(`Redis at ${url} did not answer`)));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

/**
 * A Redis database number of this run's own: the first of 1–15, from a random start, that
 * holds no keys, so runs side by side do not share counters. Answers the URL the nodes use.
 */
export async function claimRedisDatabase(): Promise<{ url: string; release(): Promise<void> }> {
  const start = 1 + Math.floor(Math.random() * 15);
  for (let offset = 0; offset < 15; offset += 1) {
    const db = 1 + ((start - 1 + offset) % 15);
    const answer = await redisCommands(REDIS_URL, [['SELECT', String(db)], ['DBSIZE']]);
    if (/^\+OK\r\n:0\r\n/.test(answer)) {
      const url = `${REDIS_URL.replace(/\/\d*$/, '')}/${db}`;
      return { url, release: async () => void (await redisCommands(REDIS_URL, [['SELECT', String(db)], ['FLUSHDB']])) };
    }
  }
  throw new Error(`No empty database among 1–15 on ${REDIS_URL}`);
}
