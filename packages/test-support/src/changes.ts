import type { Change, ChangesResponse } from '@cloudvault/contract/changes';
import { request, type RunningServer } from './running-server.ts';

/** The caller's feed position now (GET /api/changes/latest). */
export async function latestCursor(server: RunningServer, token: string): Promise<string> {
  const answer = await request(server, 'GET', '/api/changes/latest', { token });
  if (answer.status !== 200) throw new Error(`GET /api/changes/latest answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return (answer.body as { cursor: string }).cursor;
}

/** One page of changes after `cursor`; fails on anything but 200. */
export async function changesAfter(server: RunningServer, token: string, cursor: string, query = ''): Promise<ChangesResponse> {
  const answer = await request(server, 'GET', `/api/changes?cursor=${encodeURIComponent(cursor)}${query}`, { token });
  if (answer.status !== 200) throw new Error(`GET /api/changes answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as ChangesResponse;
}

/**
 * Runs `act`, then answers the changes it made to the caller's feed, in order: a cursor
 * taken before, every page read after. The usual way a test proves what a path records.
 */
export async function changesMadeBy(server: RunningServer, token: string, act: () => Promise<unknown>): Promise<Change[]> {
  const cursor = await latestCursor(server, token);
  await act();
  return changesSince(server, token, cursor);
}

/** Every change after `cursor`, all pages. */
export async function changesSince(server: RunningServer, token: string, cursor: string): Promise<Change[]> {
  const changes: Change[] = [];
  for (let position = cursor; ;) {
    const page = await changesAfter(server, token, position);
    changes.push(...page.changes);
    position = page.cursor;
    if (!page.hasMore) return changes;
  }
}
