import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FeedAccount } from './feed-database.ts';

/** No socket cap: every waiter holds its own connection, as a thousand devices would. */
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

export interface Answer {
  status: number;
  text: string;
  /** performance.now() when the last byte arrived. */
  at: number;
}

function send(url: string, token: string, method: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
  if (payload) Object.assign(headers, { 'content-type': 'application/json', 'content-length': payload.length });
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), at: performance.now() }));
    });
    req.once('error', reject);
    req.end(payload);
  });
}

export const get = (url: string, token: string) => send(url, token, 'GET');
export const post = (url: string, token: string, body: unknown) => send(url, token, 'POST', body);

/** The account's feed position now. */
export async function latestCursor(nodeUrl: string, account: FeedAccount): Promise<string> {
  const answer = await get(`${nodeUrl}/api/changes/latest`, account.token);
  if (answer.status !== 200) throw new Error(`GET /api/changes/latest answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  return (JSON.parse(answer.text) as { cursor: string }).cursor;
}

/** Makes a folder as the owner; its id. */
export async function makeFolder(nodeUrl: string, owner: FeedAccount, name: string, parentId: string | null): Promise<string> {
  const made = await post(`${nodeUrl}/api/user/folders`, owner.token, { name, parentId });
  if (made.status !== 201) throw new Error(`making folder ${name} answered ${made.status}: ${made.text.slice(0, 200)}`);
  return (JSON.parse(made.text) as { folder: { id: string } }).folder.id;
}
