import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where secrets every node of an installation must share are kept, once (the database). */
export interface SharedSecrets {
  /** Keeps `value` under `name` unless a value is kept there already; answers the kept one. */
  keepFirst(name: string, value: string): Promise<string>;
}

const newSecret = () => randomBytes(48).toString('base64url');

async function readSecretFile(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return undefined;
  }
}

/**
 * A secret kept in DATA_DIR/secrets, generated on first use, so the embedded setup needs
 * no configuration yet survives restarts (tokens stay valid).
 */
async function loadOrCreateSecretFile(file: string): Promise<string> {
  const existing = await readSecretFile(file);
  if (existing !== undefined) return existing;
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = newSecret();
  try {
    // 'wx' so two servers starting at once cannot overwrite each other's secret.
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readSecretFile(file)) as string;
  }
}

/**
 * The secret named `name`: the configured one when given; else, with a database that
 * several nodes share, the one kept there, created once by whichever node comes first;
 * else (SQLite: one node) the one in DATA_DIR/secrets. A secret an earlier version wrote to
 * DATA_DIR is what the shared one starts as, so tokens already given out stay valid
 * (docs/decisions/0020-running-several-nodes.md).
 */
export async function loadSecret(options: {
  name: string;
  configured: string | undefined;
  dataDir: string;
  shared: SharedSecrets | undefined;
}): Promise<string> {
  if (options.configured !== undefined) return options.configured;
  const file = path.join(options.dataDir, 'secrets', options.name);
  if (!options.shared) return loadOrCreateSecretFile(file);
  return options.shared.keepFirst(options.name, (await readSecretFile(file)) ?? newSecret());
}
