import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSecret, type SharedSecrets } from './secrets.ts';

/** The database's insert-if-absent, in memory. */
function sharedSecrets(): SharedSecrets & { kept: Map<string, string> } {
  const kept = new Map<string, string>();
  return {
    kept,
    keepFirst: async (name, value) => {
      if (!kept.has(name)) kept.set(name, value);
      return kept.get(name) as string;
    },
  };
}

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-secrets-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const writeExisting = async (secret: string) => {
  await mkdir(path.join(dataDir, 'secrets'));
  await writeFile(path.join(dataDir, 'secrets', 'jwt-secret'), `${secret}\n`);
};

describe('loadSecret', () => {
  it('answers the configured secret and writes nothing', async () => {
    const shared = sharedSecrets();
    expect(await loadSecret({ name: 'jwt-secret', configured: 'configured', dataDir, shared })).toBe('configured');
    expect(shared.kept.size).toBe(0);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('without a shared store (SQLite) generates one secret in DATA_DIR and keeps answering it', async () => {
    const first = await loadSecret({ name: 'jwt-secret', configured: undefined, dataDir, shared: undefined });
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(await readFile(path.join(dataDir, 'secrets', 'jwt-secret'), 'utf8')).toBe(first);
    expect(await loadSecret({ name: 'jwt-secret', configured: undefined, dataDir, shared: undefined })).toBe(first);
  });

  it('with a shared store (PostgreSQL) keeps a new secret there and none on this node’s disk', async () => {
    const shared = sharedSecrets();
    const secret = await loadSecret({ name: 'jwt-secret', configured: undefined, dataDir, shared });
    expect(shared.kept.get('jwt-secret')).toBe(secret);
    expect(await readdir(dataDir)).toEqual([]);
    // Another node, with its own disk, gets the same one.
    const otherDir = await mkdtemp(path.join(os.tmpdir(), 'cloudvault-secrets-'));
    try {
      expect(await loadSecret({ name: 'jwt-secret', configured: undefined, dataDir: otherDir, shared })).toBe(secret);
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('keeps using the secret an existing installation has in DATA_DIR, with or without a shared store', async () => {
    await writeExisting('the secret an earlier version generated');
    expect(await loadSecret({ name: 'jwt-secret', configured: undefined, dataDir, shared: undefined })).toBe(
      'the secret an earlier version generated',
    );
    const shared = sharedSecrets();
    expect(await loadSecret({ name: 'jwt-secret', configured: undefined, dataDir, shared })).toBe(
      'the secret an earlier version generated',
    );
    expect(shared.kept.get('jwt-secret')).toBe('the secret an earlier version generated');
  });

  it('answers the shared secret over this node’s file once another node has created it', async () => {
    const shared = sharedSecrets();
    await shared.keepFirst('jwt-secret', 'created by the first node');
    await writeExisting('this node’s own old secret');
    expect(await loadSecret({ name: 'jwt-secret', configured: undefined, dataDir, shared })).toBe('created by the first node');
  });
});
