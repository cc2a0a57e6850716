import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSharedSecrets } from '../src/db/shared-secrets.ts';
import { createUser } from '@cloudvault/test-support/accounts';
import { startTestServer } from './helpers/test-server.ts';

const postgres = process.env.TEST_DB === 'postgres';

describe('nodes sharing one database', () => {
  it('sign tokens with one secret, kept in PostgreSQL rather than on any node’s disk', async () => {
    const first = await startTestServer();
    try {
      const second = await first.startNode({ ownDataDir: postgres });
      try {
        const { token } = await createUser(first);
        expect((await second.request('GET', '/api/auth/profile', { token })).status).toBe(200);
        if (postgres) {
          for (const node of [first, second]) expect(await readdir(path.join(node.dataDir, 'secrets')).catch(() => [])).toEqual([]);
          const kept = await first.container.database.db.selectFrom('shared_secrets').select('name').execute();
          expect(kept).toEqual([{ name: 'jwt-secret' }]);
        }
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });

  it('keep the first value when several nodes create a shared secret at once', async () => {
    const server = await startTestServer();
    try {
      const secrets = createSharedSecrets(server.container.database.db, server.clock);
      const kept = await Promise.all(Array.from({ length: 8 }, (_, index) => secrets.keepFirst('race', `value ${index}`)));
      expect(new Set(kept).size).toBe(1);
      expect(await secrets.keepFirst('race', 'later')).toBe(kept[0]);
    } finally {
      await server.close();
    }
  });
});
