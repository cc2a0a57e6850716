import path from 'node:path';
import { createPostgresDatabase } from '../../apps/server/test/helpers/test-database.ts';
import { type OurServer, startOurServer } from '../servers/ours.ts';
import { type DatabaseTarget, newJwtSecret } from './feed-database.ts';

/** Server processes of ours for one change feed scenario, stopped (and their database dropped) by `stop`. */
export interface FeedNodes {
  /** One node, or two on the same PostgreSQL database. */
  nodes: OurServer[];
  /** Where seedAccounts and fillJournal write. */
  database: DatabaseTarget;
  /** The nodes' JWT_SECRET: tokens minted with it are accepted by every node. */
  jwtSecret: string;
  stop(): Promise<void>;
}

/** The default embedded setup (SQLite, local blobs) as the other scenarios run it. */
export async function startSqliteNode(repoRoot: string, root: string): Promise<FeedNodes> {
  const jwtSecret = newJwtSecret();
  const node = await startOurServer(repoRoot, root, { JWT_SECRET: jwtSecret });
  return { nodes: [node], database: { dataDir: node.dataDir }, jwtSecret, stop: () => node.stop() };
}

/**
 * `count` nodes on one throwaway PostgreSQL database, each with its own DATA_DIR. They run
 * with SINGLE_NODE=1 (local blobs, no SMTP): the scenarios only make folders and read the
 * feed, so nothing node-local is shared, and wake-ups travel as they do in a cluster, by
 * PostgreSQL's LISTEN/NOTIFY. Started one after the other (the first migrates).
 */
export async function startPostgresNodes(repoRoot: string, root: string, adminUrl: string, count: number): Promise<FeedNodes> {
  const database = await createPostgresDatabase(adminUrl);
  const jwtSecret = newJwtSecret();
  const nodes: OurServer[] = [];
  const stop = async () => {
    await Promise.allSettled(nodes.map((node) => node.stop()));
    await database.drop();
  };
  try {
    for (let index = 0; index < count; index++)
      nodes.push(
        await startOurServer(repoRoot, path.join(root, `node-${index + 1}`), {
          DATABASE_URL: database.url,
          SINGLE_NODE: '1',
          JWT_SECRET: jwtSecret,
        }),
      );
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes, database: { databaseUrl: database.url }, jwtSecret, stop };
}
