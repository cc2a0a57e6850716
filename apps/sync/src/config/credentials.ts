/**
 * The one credential the client keeps: the server, the account's e-mail, the device's name
 * and an app password (never the account password), in `credentials.json`, readable by the
 * user only (folder 0700, file 0600) and written atomically (temp file, then rename).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface Credentials {
  server: string;
  email: string;
  device: string;
  appPassword: string;
}

const FILE_NAME = 'credentials.json';

/** Makes the folder (and its parents) readable by the user only. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir leaves an existing folder's mode as it was, and the umask may have narrowed a new one.
  await chmod(dir, 0o700);
}

/** Writes `text` to `file` with mode 0600: a reader sees the old file or the new one, never half. */
export async function writePrivateFile(file: string, text: string): Promise<void> {
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { mode: 0o600, flush: true });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Stores the credential in the configuration folder. */
export async function saveCredentials(configDir: string, credentials: Credentials): Promise<void> {
  await ensurePrivateDir(configDir);
  await writePrivateFile(path.join(configDir, FILE_NAME), `${JSON.stringify(credentials, null, 2)}\n`);
}

/** The stored credential, or a readable reason why there is none. */
export async function loadCredentials(configDir: string): Promise<Credentials | { error: string }> {
  let text: string;
  try {
    text = await readFile(path.join(configDir, FILE_NAME), 'utf8');
  } catch {
    return { error: `Not signed in (no credentials in ${configDir}): run cloudvault login first.` };
  }
  try {
    const parsed = JSON.parse(text) as Partial<Credentials>;
    if (typeof parsed.server === 'string' && typeof parsed.email === 'string' && typeof parsed.appPassword === 'string') {
      return { server: parsed.server, email: parsed.email, device: parsed.device ?? '', appPassword: parsed.appPassword };
    }
  } catch {
    // Falls through to the answer below.
  }
  return { error: `The credentials in ${configDir} are unreadable: run cloudvault login again.` };
}
