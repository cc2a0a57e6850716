import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { waitFor } from '../helpers/wait-for.ts';
import { type Cluster, requestsLogged, startCluster } from './helpers/cluster.ts';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/** The nodes' share of `count` profile requests made now, by their logs. */
async function profileRequestsPerNode(token: string, count: number): Promise<number[]> {
  const before = cluster.nodes.map((node) => requestsLogged(node, 'GET', '/api/auth/profile'));
  for (let turn = 0; turn < count; turn += 1) {
    const profile = await cluster.request('GET', '/api/auth/profile', { token });
    expect(profile.status, `profile request ${turn + 1}: ${profile.text}`).toBe(200);
  }
  const perNode = () => cluster.nodes.map((node, index) => requestsLogged(node, 'GET', '/api/auth/profile') - (before[index] ?? 0));
  // A node's log line reaches this process through its stdout pipe, which may lag the answer on a busy machine.
  return waitFor(
    `${count} profile requests in the nodes' logs`,
    async () => {
      const counts = perNode();
      return counts.reduce((sum, n) => sum + n, 0) >= count && counts;
    },
    5_000,
    50,
  ).catch(() => perNode());
}

it('spreads requests over both nodes, each accepting the sessions the other signed', async () => {
  const user = await createUser(cluster);
  expect(await profileRequestsPerNode(user.token, 6)).toEqual([3, 3]);
});

it('keeps answering while a node is killed and taken out, and uses it again once it is back', async () => {
  const user = await createUser(cluster);
  const [victim] = cluster.nodes;
  await victim.kill();
  // Before haproxy's checks mark it down, a request sent to the dead node goes to the other.
  expect(await profileRequestsPerNode(user.token, 4)).toEqual([0, 4]);
  await cluster.balancer.waitForServer(victim.name, 'DOWN');

  await cluster.startNode(victim);
  expect(await profileRequestsPerNode(user.token, 4)).toEqual([2, 2]);
});
