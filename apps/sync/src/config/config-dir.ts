/**
 * Where the client keeps its credential and its journals: `--config-dir`, else
 * CLOUDVAULT_CONFIG_DIR, else the operating system's per-user configuration folder.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/** The facts the default folder depends on, given so a test can ask for another platform's. */
export interface ConfigDirContext {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  home: string;
}

/** The running process's platform, environment and home folder. */
export function currentContext(): ConfigDirContext {
  return { platform: process.platform, env: process.env, home: os.homedir() };
}

/** The configuration folder: the flag wins, then the environment, then the platform's default. */
export function resolveConfigDir(flag: string | undefined, context: ConfigDirContext = currentContext()): string {
  if (flag) return path.resolve(flag);
  const fromEnv = context.env.CLOUDVAULT_CONFIG_DIR;
  if (fromEnv) return path.resolve(fromEnv);
  if (context.platform === 'win32') {
    return path.win32.join(context.env.APPDATA ?? path.win32.join(context.home, 'AppData', 'Roaming'), 'CloudVault');
  }
  if (context.platform === 'darwin') return path.join(context.home, 'Library', 'Application Support', 'CloudVault');
  const xdg = context.env.XDG_CONFIG_HOME;
  // The XDG spec ignores a relative XDG_CONFIG_HOME.
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(context.home, '.config'), 'cloudvault');
}

/** What names a synced pair: the same account, local folder and drive folder always map to the same journal. */
export interface PairKey {
  server: string;
  email: string;
  localDir: string;
  remotePath: string;
}

/** The journal file of a pair: `<configDir>/pairs/<first 16 hex of sha256(server|email|absLocalDir|remotePath)>.sqlite`. */
export function pairDatabasePath(configDir: string, pair: PairKey): string {
  const key = [pair.server, pair.email, path.resolve(pair.localDir), pair.remotePath].join('|');
  const id = createHash('sha256').update(key).digest('hex').slice(0, 16);
  return path.join(configDir, 'pairs', `${id}.sqlite`);
}
