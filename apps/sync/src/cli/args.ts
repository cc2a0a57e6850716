/** The command's usage text and how each command reads its arguments. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export const USAGE = `Usage:
  cloudvault login --server URL --email E --password P [--device NAME] [--config-dir DIR]
  cloudvault login                      (asks for each on a terminal)
  cloudvault sync LOCAL_DIR [--remote PATH] [--once] [--dry-run] [--allow-mass-delete] [--config-dir DIR]
  cloudvault status [--config-dir DIR]

  login    signs this device in; keeps an app password (never the account password)
  sync     keeps LOCAL_DIR and the drive folder PATH (default /) the same; --once: one pass
           both ways, then exit; --dry-run: print what would happen and change nothing
  status   what each synced folder has pending, in conflict or failing

The configuration folder: --config-dir, else CLOUDVAULT_CONFIG_DIR, else the system's per-user one.
Exit codes: 0 done, 1 failed (the reason on standard error), 2 wrong usage.`;

/** A command's flags, as node:util parseArgs reads them. */
export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

/** Wrong usage: the message, then the usage, on standard error; exit code 2. */
export function usageError(message: string): number {
  process.stderr.write(`${message}\n${USAGE}\n`);
  return 2;
}

/** Parses a command's arguments strictly (an unknown flag is wrong usage); a string answer is the reason they are wrong. */
export function parseCommandArgs<T extends CommandOptions>(args: string[], options: T) {
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    return (error as Error).message;
  }
}

/** Prints the usage on standard output (asked for with --help); exit code 0. */
export function printUsage(): number {
  process.stdout.write(`${USAGE}\n`);
  return 0;
}
