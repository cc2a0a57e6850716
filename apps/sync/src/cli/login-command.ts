/** `cloudvault login`: signs the device in and keeps its app password in the configuration folder. */
import os from 'node:os';
import { resolveConfigDir } from '../config/config-dir.ts';
import { saveCredentials } from '../config/credentials.ts';
import { parseCommandArgs, printUsage, usageError } from './args.ts';
import { ask, canAsk } from './prompt.ts';
import { signIn } from './sign-in.ts';

const OPTIONS = {
  server: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  device: { type: 'string' },
  'config-dir': { type: 'string' },
} as const;

/** A server address as the client keeps it: an http(s) origin and path without the trailing slash. */
function serverUrl(text: string): string | undefined {
  try {
    const url = new URL(text.includes('://') ? text : `https://${text}`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.href.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

/** Runs `cloudvault login`; answers the exit code. */
export async function loginCommand(args: string[]): Promise<number> {
  const parsed = parseCommandArgs(args, OPTIONS);
  if (typeof parsed === 'string') return usageError(parsed);
  if (parsed.values.help) return printUsage();
  if (parsed.positionals.length > 0) return usageError(`login takes no ${parsed.positionals[0]}`);
  const values = parsed.values;
  const interactive = canAsk();
  const missing = (['server', 'email', 'password'] as const).filter((name) => !values[name]);
  if (missing.length > 0 && !interactive) return usageError(`login needs ${missing.map((name) => `--${name}`).join(', ')}`);
  const server = values.server ?? (await ask('Server (https://…): '));
  const url = serverUrl(server.trim());
  if (!url) return usageError(`Not a server address: ${server}`);
  const email = (values.email ?? (await ask('E-mail: '))).trim();
  const password = values.password ?? (await ask('Password (or an app password): ', { secret: true }));
  if (!email || !password) return usageError('login needs an e-mail and a password');
  const device = values.device?.trim() || os.hostname();

  const result = await signIn({
    server: url,
    email,
    password,
    device,
    ...(interactive ? { askCode: () => ask('Two-factor code: ') } : {}),
  });
  if ('error' in result) {
    process.stderr.write(`${result.error}\n`);
    return 1;
  }
  const configDir = resolveConfigDir(values['config-dir']);
  await saveCredentials(configDir, { server: url, email, device, appPassword: result.appPassword });
  process.stdout.write(`Signed in to ${url} as ${email} (device "${device}"). Credentials kept in ${configDir}.\n`);
  return 0;
}
